/**
 * LDAP sign-in end to end against a real OpenLDAP slapd that the test configures and starts on a
 * loopback port (tests/support/slapd.ts). CI installs slapd; on a machine without it these tests
 * are skipped with a message, except under CI=true, where a missing slapd is a failure.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Change, Attribute } from "ldapts";
import { startTestServer, type TestServer } from "../support/server.js";
import {
  ADMINS_DN,
  BASE_DN,
  COOKS_DN,
  LDAP_USERS,
  READER_DN,
  READER_PASSWORD,
  freePort,
  slapdAvailable,
  startSlapd,
  userDn,
  type RunningSlapd,
} from "../support/slapd.js";
import { observeBcrypt } from "../../core/auth/passwords.js";
import { skipOrFail } from "../../core/testing/needs.js";

const available = slapdAvailable();
const CI = /^(1|true)$/i.test(process.env.CI ?? "");
if (!available && !CI) {
  console.warn(
    "LDAP tests skipped: /usr/sbin/slapd not found (apt-get install slapd ldap-utils to run them; CI=true makes this a failure)",
  );
}

let slapd: RunningSlapd;
let t: TestServer;

async function login(username: string, password: string) {
  const res = await t.api("/api/auth/token", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  const body = (await res.json()) as { access_token?: string; detail?: unknown };
  return { status: res.status, token: body.access_token ?? "", detail: body.detail };
}
const self = async (token: string) =>
  (await t.api("/api/users/self", { token })).json() as Promise<Record<string, unknown>>;
const { alice, bob, carol } = LDAP_USERS;

/** Run `fn` with some LDAP_* settings changed, then put them back. */
async function withLdap(patch: Record<string, string | undefined>, fn: () => Promise<void>) {
  const cfg = t.larder.config.ldap;
  const saved = { ...cfg };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete cfg[k];
    else cfg[k] = v;
  }
  try {
    await fn();
  } finally {
    for (const k of Object.keys(cfg)) delete cfg[k];
    Object.assign(cfg, saved);
  }
}

describe.skipIf(!available && !CI)("LDAP sign-in", () => {
  beforeAll(async () => {
    if (!available)
      throw new Error(
        "slapd is required under CI=true but /usr/sbin/slapd (Debian slapd + ldap-utils) is missing",
      );
    slapd = await startSlapd();
    t = await startTestServer({
      ldap: {
        AUTH_ENABLED: "true",
        SERVER_URL: slapd.url,
        BASE_DN,
        QUERY_BIND: READER_DN,
        QUERY_PASSWORD: READER_PASSWORD,
        USER_FILTER: `(memberOf=${COOKS_DN})`,
        ADMIN_FILTER: `(memberOf=${ADMINS_DN})`,
        ID_ATTRIBUTE: "uid",
        MAIL_ATTRIBUTE: "mail",
        NAME_ATTRIBUTE: "cn",
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it("signs a directory admin in by uid and creates an LDAP account without a local password", async () => {
    const { status, token } = await login("alice", alice.password);
    expect(status).toBe(200);
    const me = await self(token);
    expect(me).toMatchObject({
      username: "alice",
      email: alice.mail,
      fullName: alice.cn,
      authMethod: "LDAP",
      admin: true,
      groupSlug: "home",
    });
    expect(t.larder.auth.hasPassword(String(me.id))).toBe(false);
  });

  it("signs a plain member in by e-mail, not as admin", async () => {
    const { status, token } = await login(bob.mail, bob.password);
    expect(status).toBe(200);
    expect(await self(token)).toMatchObject({ username: "bob", authMethod: "LDAP", admin: false });
    // The next sign-in, by uid, finds the same account.
    const again = await login("bob", bob.password);
    expect((await self(again.token)).id).toBe((await self(token)).id);
  });

  it("refuses a wrong or empty password with 401", async () => {
    expect(await login("alice", "not-her-password")).toMatchObject({ status: 401, detail: "Unauthorized" });
    expect(await login("alice", "")).toMatchObject({ status: 401 });
    expect(await login("nobody", "whatever-123")).toMatchObject({ status: 401, detail: "Unauthorized" });
  });

  it("refuses someone the user filter excludes, with a clear 401 and no account", async () => {
    const res = await login("carol", carol.password);
    expect(res).toMatchObject({
      status: 401,
      detail: "Your directory account is not in a group allowed to sign in to Larder",
    });
    expect(t.larder.users.byLogin("carol")).toBeNull();
    // Without the right password nothing about carol's groups is told.
    expect(await login("carol", "guess-1234")).toMatchObject({ status: 401, detail: "Unauthorized" });
    // The sign-in form says it in words too.
    const form = await fetch(`${t.url}/login?index`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: t.url },
      body: new URLSearchParams({ username: "carol", password: carol.password }),
    });
    expect(form.status).toBe(401);
    expect(await form.text()).toMatch(/may not sign in to Larder/);
  });

  it("escapes the login in the search filter: wildcards and filter syntax match nothing", async () => {
    for (const evil of ["*)(uid=*", "*", "ali*", "alice)(|(uid=*", "*)(memberOf=*"]) {
      expect(await login(evil, alice.password), evil).toMatchObject({ status: 401, detail: "Unauthorized" });
    }
  });

  it("re-syncs admin from LDAP_ADMIN_FILTER at every sign-in", async () => {
    const admin = await slapd.admin();
    const change = (operation: "add" | "delete") =>
      admin.modify(
        ADMINS_DN,
        new Change({ operation, modification: new Attribute({ type: "member", values: [userDn("bob")] }) }),
      );
    try {
      await change("add");
      expect(await self((await login("bob", bob.password)).token)).toMatchObject({ admin: true });
      await change("delete");
      expect(await self((await login("bob", bob.password)).token)).toMatchObject({ admin: false });
    } finally {
      await admin.unbind();
    }
  });

  it("never lets an LDAP account use a local password, and keeps local accounts local", async () => {
    const aliceId = t.larder.users.byLogin("alice")?.id ?? "";
    await t.larder.auth.setPassword(aliceId, "a-local-password-1");
    expect(await login("alice", "a-local-password-1")).toMatchObject({ status: 401 });
    // The first admin is a local account: LDAP is not asked, the local password works.
    expect((await login("admin", "MyPassword")).status).toBe(200);
  });

  it("lets a login unknown to both fall through to the local check (same hash work as a known user)", async () => {
    const seen: string[] = [];
    const stop = observeBcrypt((o) => seen.push(o.op === "verify" ? (o.dummy ? "dummy" : "real") : "hash"));
    const res = await login("stranger", "whatever-123");
    stop();
    expect(res.status).toBe(401);
    expect(seen).toContain("dummy");
  });

  it("searches anonymously when no query bind is configured", async () => {
    await withLdap({ QUERY_BIND: undefined, QUERY_PASSWORD: undefined }, async () => {
      expect((await login("bob", bob.password)).status).toBe(200);
    });
  });

  it("answers 401 with a clear message, and logs, when the server is down or the query bind is refused", async () => {
    const error = vi.spyOn(t.larder.log, "error");
    try {
      await withLdap({ SERVER_URL: `ldap://127.0.0.1:${await freePort()}` }, async () => {
        const message = "The LDAP server is unavailable; try again later or ask your administrator";
        expect(await login("alice", alice.password)).toMatchObject({ status: 401, detail: message });
        expect(await login("someone-new", "whatever-123")).toMatchObject({ status: 401, detail: message });
        // Local accounts do not depend on the directory.
        expect((await login("admin", "MyPassword")).status).toBe(200);
      });
      expect(error.mock.calls.some(([m]) => /LDAP sign-in of 'alice' failed/.test(String(m)))).toBe(true);
      await withLdap({ QUERY_PASSWORD: "wrong" }, async () => {
        expect(await login("bob", bob.password)).toMatchObject({ status: 401 });
      });
      expect(error.mock.calls.some(([m]) => /LDAP_QUERY_BIND/.test(String(m)))).toBe(true);
    } finally {
      error.mockRestore();
    }
  });

  it("times out against a server that accepts the connection and never answers", async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as { port: number }).port;
    try {
      await withLdap({ SERVER_URL: `ldap://127.0.0.1:${port}`, TIMEOUT: "0.5" }, async () => {
        const started = Date.now();
        expect(await login("bob", bob.password)).toMatchObject({ status: 401 });
        expect(Date.now() - started).toBeLessThan(3000);
      });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  });

  it("upgrades with STARTTLS, trusting LDAP_TLS_CACERTFILE, and refuses an unknown certificate", async (ctx) => {
    if (!slapd.caFile) return skipOrFail(ctx, "openssl (for the STARTTLS certificate)");
    await withLdap({ ENABLE_STARTTLS: "true", TLS_CACERTFILE: slapd.caFile }, async () => {
      expect((await login("bob", bob.password)).status).toBe(200);
    });
    await withLdap({ ENABLE_STARTTLS: "true" }, async () => {
      expect(await login("bob", bob.password)).toMatchObject({
        status: 401,
        detail: expect.stringMatching(/unavailable/),
      });
    });
    await withLdap({ ENABLE_STARTTLS: "true", TLS_INSECURE: "true" }, async () => {
      expect((await login("bob", bob.password)).status).toBe(200);
    });
  });

  it("connects over ldaps:// with the same TLS options", async (ctx) => {
    if (!slapd.caFile || !slapd.ldapsUrl) return skipOrFail(ctx, "openssl (for the ldaps:// certificate)");
    await withLdap({ SERVER_URL: slapd.ldapsUrl, TLS_CACERTFILE: slapd.caFile }, async () => {
      expect((await login("bob", bob.password)).status).toBe(200);
    });
    await withLdap({ SERVER_URL: slapd.ldapsUrl }, async () => {
      expect(await login("bob", bob.password)).toMatchObject({
        status: 401,
        detail: expect.stringMatching(/unavailable/),
      });
    });
  });

  it("counts a directory account's wrong passwords like a local one's, but not an outage's attempts", async () => {
    // Unreachable directory: a dozen tries lock no one out, and the form says why in words.
    await withLdap({ SERVER_URL: `ldap://127.0.0.1:${await freePort()}` }, async () => {
      for (let i = 0; i < 12; i++) expect((await login("carol", carol.password)).status).toBe(401);
      const form = await fetch(`${t.url}/login?index`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: t.url },
        body: new URLSearchParams({ username: "carol", password: carol.password }),
      });
      expect(form.status).toBe(401);
      expect(await form.text()).toMatch(/cannot be reached/);
    });
    // Wrong passwords for a directory account: the guessing address is locked out after five.
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await login("bob", `wrong-${i}`)).status);
    expect(answers).toEqual([401, 401, 401, 401, 401, 423]);
    expect((await login("bob", bob.password)).status).toBe(423);
  });
});
