import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { observeBcrypt } from "../../core/auth/passwords.js";
import { signSessionJwt } from "../../core/auth/jwt.js";
import { loadSecrets } from "../../core/storage/secrets.js";
import { makeUser, PASSWORD } from "../support/people.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ maxLoginAttempts: 3 });
});
afterAll(async () => t?.close());

const form = (username: string, password: string) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ username, password }),
});

describe("auth", () => {
  it("logs in by username or by e-mail and answers Mealie's token shape with a cookie", async () => {
    for (const login of ["admin", "ChangeMe@Example.com"]) {
      const res = await t.api("/api/auth/token", form(login, "MyPassword"));
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, string>;
      expect(body.token_type).toBe("bearer");
      expect(body.access_token.split(".")).toHaveLength(3);
      expect(res.headers.get("set-cookie")).toMatch(/mealie\.access_token=.*HttpOnly.*SameSite=Lax/i);
    }
  });

  it("refuses a wrong password with 401 and runs the same hash check for unknown users", async () => {
    const seen: string[] = [];
    const stop = observeBcrypt((o) => seen.push(o.op === "verify" ? (o.dummy ? "dummy" : "real") : "hash"));
    const res = await t.api("/api/auth/token", form("nobody-here", "whatever1"));
    stop();
    expect(res.status).toBe(401);
    expect(seen).toContain("dummy");
  });

  it("says isFirstLogin while the first admin keeps the default password", async () => {
    const res = await t.api("/api/app/about/startup-info");
    const body = await res.json();
    expect(body).toEqual({ isFirstLogin: true, isDemo: false });
    if (hasContract) assertContract("AppStartupInfo", body);
  });

  it("serves /users/self in the contract's UserOut shape and refuses missing or forged tokens", async () => {
    const token = await t.login();
    const res = await t.api("/api/users/self", { token });
    expect(res.status).toBe(200);
    const me = (await res.json()) as Record<string, unknown>;
    expect(me.username).toBe("admin");
    expect(me.groupSlug).toBe("home");
    if (hasContract) assertContract("UserOut", me);
    expect((await t.api("/api/users/self")).status).toBe(401);
    const forged = token.slice(0, -4) + "AAAA";
    const bad = await t.api("/api/users/self", { token: forged });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("ends the session on logout so the same token is refused", async () => {
    const token = await t.login();
    expect((await t.api("/api/auth/logout", { method: "POST", token })).status).toBe(200);
    expect((await t.api("/api/users/self", { token })).status).toBe(401);
  });

  it("refreshes with GET and POST", async () => {
    const token = await t.login();
    const a = await t.api("/api/auth/refresh", { token });
    expect(a.status).toBe(200);
    const fresh = ((await a.json()) as { access_token: string }).access_token;
    expect((await t.api("/api/users/self", { token: fresh })).status).toBe(200);
    const b = await t.api("/api/auth/refresh", { method: "POST", token: fresh });
    expect(b.status).toBe(200);
  });

  it("keeps the token a refresh was called with working, and ends both on logout", async () => {
    const token = await t.login();
    const res = await t.api("/api/auth/refresh", { token });
    const fresh = ((await res.json()) as { access_token: string }).access_token;
    // A client with requests in flight on the old token must not see them fail.
    expect((await t.api("/api/users/self", { token })).status).toBe(200);
    expect((await t.api("/api/users/self", { token: fresh })).status).toBe(200);
    expect((await t.api("/api/auth/logout", { method: "POST", token: fresh })).status).toBe(200);
    expect((await t.api("/api/users/self", { token })).status).toBe(401);
    expect((await t.api("/api/users/self", { token: fresh })).status).toBe(401);
  });

  it("creates long-lived API tokens shown once, stored hashed, and deletable", async () => {
    const token = await t.login();
    const res = await t.api("/api/users/api-tokens", { method: "POST", token, json: { name: "script" } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { token: string; id: number; name: string };
    if (hasContract) assertContract("LongLiveTokenCreateResponse", created);
    expect((await t.api("/api/users/self", { token: created.token })).status).toBe(200);
    const { readFile } = await import("node:fs/promises");
    const stored = await readFile(t.larder.folder.apiTokensJson, "utf8");
    expect(stored).not.toContain(created.token);
    const del = await t.api(`/api/users/api-tokens/${created.id}`, { method: "DELETE", token });
    const deleted = await del.json();
    expect(deleted).toEqual({ tokenDelete: "script" });
    if (hasContract) assertContract("DeleteTokenResponse", deleted);
    expect((await t.api("/api/users/self", { token: created.token })).status).toBe(401);
  });

  it("accepts the session cookie but refuses cross-origin unsafe requests made with it", async () => {
    const token = await t.login();
    const cookie = `mealie.access_token=${token}`;
    expect((await t.api("/api/users/self", { headers: { cookie } })).status).toBe(200);
    const cross = await t.api("/api/recipes", {
      method: "POST",
      headers: { cookie, origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(cross.status).toBe(403);
    const host = new URL(t.url).host;
    const same = await t.api("/api/recipes", {
      method: "POST",
      headers: { cookie, origin: `http://${host}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Cookie Cake" }),
    });
    expect(same.status).toBe(201);
  });

  it("locks the account after the configured failures (423, even with the right password)", async () => {
    const u = await t.larder.users.create(
      {
        username: "locky",
        email: "locky@example.com",
        fullName: "Lock Y",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: t.larder.users.all()[0].groupId, householdId: t.larder.users.all()[0].householdId },
    );
    await t.larder.auth.setPassword(u.id, "RightPassword1");
    for (let i = 0; i < 3; i++)
      expect((await t.api("/api/auth/token", form("locky", "wrong-password"))).status).toBe(401);
    const locked = await t.api("/api/auth/token", form("locky", "RightPassword1"));
    expect(locked.status).toBe(423);
    expect(await locked.json()).toEqual({ detail: "User is locked out" });
  });
});

describe("auth with Mealie's default lockout (5 attempts, 24 hours)", () => {
  let d: TestServer;
  beforeAll(async () => {
    d = await startTestServer();
  });
  afterAll(async () => d?.close());

  it("answers 401 to five wrong passwords, 423 to the sixth attempt, and lets the lock expire", async () => {
    const p = await makeUser(d);
    for (let i = 0; i < 5; i++)
      expect((await d.api("/api/auth/token", form(p.user.username, "wrong-password"))).status).toBe(401);
    expect((await d.api("/api/auth/token", form(p.user.username, "wrong-again"))).status).toBe(423);
    expect((await d.api("/api/auth/token", form(p.user.username, PASSWORD))).status).toBe(423);
    const almost = new Date(Date.now() + 23 * 3600 * 1000);
    d.larder.auth.useClock(() => almost);
    expect((await d.api("/api/auth/token", form(p.user.username, PASSWORD))).status).toBe(423);
    const after = new Date(Date.now() + 24 * 3600 * 1000 + 60_000);
    d.larder.auth.useClock(() => after);
    try {
      expect((await d.api("/api/auth/token", form(p.user.username, PASSWORD))).status).toBe(200);
    } finally {
      d.larder.auth.useClock(() => new Date());
    }
  });

  it("refuses expired, forged and logged-out session tokens with 401", async () => {
    const p = await makeUser(d);
    const { jwtSecret } = await loadSecrets(d.larder.folder);
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await signSessionJwt(jwtSecret, {
      userId: p.user.id,
      sessionId: "no-such-session",
      exp: past,
    });
    expect((await d.api("/api/users/self", { token: expired })).status).toBe(401);
    const forged = await signSessionJwt(new TextEncoder().encode("not the secret of this folder!!"), {
      userId: p.user.id,
      sessionId: "x",
      exp: past + 3600,
    });
    expect((await d.api("/api/users/self", { token: forged })).status).toBe(401);
    // A session past its lifetime ends even though nobody logged out.
    const later = new Date(Date.now() + 49 * 3600 * 1000);
    d.larder.auth.useClock(() => later);
    try {
      expect((await d.api("/api/users/self", { token: p.token })).status).toBe(401);
    } finally {
      d.larder.auth.useClock(() => new Date());
    }
    expect((await d.api("/api/users/self", { token: p.token })).status).toBe(200);
    expect((await d.api("/api/auth/logout", { method: "POST", token: p.token })).status).toBe(200);
    expect((await d.api("/api/users/self", { token: p.token })).status).toBe(401);
  });
});
