/**
 * OIDC sign-in end to end against a real provider (npm oidc-provider) on loopback: authorization
 * code + PKCE, ID token and userinfo, group gating, account creation, admin re-sync, and refusals.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { freePort } from "../support/slapd.js";
import {
  ADMIN_GROUP,
  CookieJar,
  IDP_CLIENT,
  IDP_PUBLIC_CLIENT,
  USER_GROUP,
  browseSignIn,
  startTestIdp,
  type TestIdp,
} from "../support/oidc-provider.js";

let idp: TestIdp;
let t: TestServer;
let callback: string;
let loginPage: string;

beforeAll(async () => {
  idp = await startTestIdp();
  t = await startTestServer({
    // The IdP is on 127.0.0.1, which the guarded fetcher refuses unless it is allowed.
    fetchAllow: "127.0.0.1",
    oidc: {
      AUTH_ENABLED: "true",
      CONFIGURATION_URL: idp.discoveryUrl,
      CLIENT_ID: IDP_CLIENT.id,
      CLIENT_SECRET: IDP_CLIENT.secret,
      USER_GROUP,
      ADMIN_GROUP,
      PROVIDER_NAME: "Test IdP",
    },
  });
  // BASE_URL is only known once the server listens; settings are read on every sign-in.
  t.larder.config.baseUrl = t.url;
  callback = `${t.url}/api/auth/oauth/callback`;
  loginPage = `${t.url}/login`;
  await idp.register([callback, loginPage]);
});
afterAll(async () => {
  await t?.close();
  await idp?.stop();
});

/** Sign in through the IdP to Larder's own callback: the browser lands on "/" with the session cookie. */
async function signIn(login: string, jar = new CookieJar()) {
  const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, login, callback);
  const res = await jar.fetch(back);
  return { res, jar, token: jar.get("mealie.access_token") ?? null };
}

const self = async (token: string) =>
  (await t.api("/api/users/self", { token })).json() as Promise<Record<string, unknown>>;
const userByName = (name: string) => t.larder.users.all().find((u) => u.username === name) ?? null;

describe("OIDC sign-in", () => {
  it("announces OIDC in app info with the provider's name", async () => {
    const about = (await (await t.api("/api/app/about")).json()) as Record<string, unknown>;
    expect(about).toMatchObject({ enableOidc: true, oidcRedirect: false, oidcProviderName: "Test IdP" });
    t.larder.config.oidc.AUTO_REDIRECT = "true";
    expect(((await (await t.api("/api/app/about")).json()) as Record<string, unknown>).oidcRedirect).toBe(
      true,
    );
    delete t.larder.config.oidc.AUTO_REDIRECT;
  });

  it("redirects to the IdP with PKCE S256, state and nonce, and a binding cookie", async () => {
    const res = await fetch(`${t.url}/api/auth/oauth`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location") ?? "");
    expect(to.origin).toBe(idp.issuer);
    const q = to.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(IDP_CLIENT.id);
    expect(q.get("redirect_uri")).toBe(callback);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toMatch(/^[\w-]{43}$/);
    expect(q.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(q.get("scope")).toBe("openid email profile groups");
    // Attribute order is the cookie package's; each attribute is what matters.
    const binding = res.headers.get("set-cookie") ?? "";
    expect(binding).toMatch(/^larder\.oidc=[\w-]{43};/);
    for (const attr of ["Path=/api/auth/oauth", "HttpOnly", "SameSite=Lax", "Max-Age=600"])
      expect(binding.split("; ")).toContain(attr);
  });

  it("signs a member of the admin group in, creating an OIDC admin account", async () => {
    const { res, token } = await signIn("olivia");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(token).toBeTruthy();
    const me = await self(token ?? "");
    expect(me).toMatchObject({
      username: "olivia",
      email: "olivia@idp.test",
      fullName: "Olivia Owner",
      authMethod: "OIDC",
      admin: true,
      groupSlug: "home",
    });
    expect(t.larder.auth.hasPassword(String(me.id))).toBe(false);
  });

  it("answers Mealie's token JSON when a frontend relays the code from its /login page", async () => {
    t.larder.config.oidc.REDIRECT_URI = loginPage;
    try {
      const jar = new CookieJar();
      const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", loginPage);
      const res = await jar.fetch(`${t.url}/api/auth/oauth/callback${back.search}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { access_token: string; token_type: string };
      expect(body.token_type).toBe("bearer");
      expect(res.headers.get("set-cookie")).toMatch(/mealie\.access_token=.*Max-Age=172800/);
      expect(await self(body.access_token)).toMatchObject({
        username: "pete",
        authMethod: "OIDC",
        admin: false,
      });
    } finally {
      delete t.larder.config.oidc.REDIRECT_URI;
    }
  });

  it("finds the same account next time and re-syncs admin from the admin group", async () => {
    const before = t.larder.users.all().length;
    idp.accounts.olivia.groups = [USER_GROUP];
    try {
      const { token } = await signIn("olivia");
      expect(await self(token ?? "")).toMatchObject({ username: "olivia", admin: false });
      expect(t.larder.users.all().length).toBe(before);
    } finally {
      idp.accounts.olivia.groups = [USER_GROUP, ADMIN_GROUP];
    }
    expect(await self((await signIn("olivia")).token ?? "")).toMatchObject({ admin: true });
  });

  it("refuses someone in neither the user nor the admin group, with a clear 401", async () => {
    const { res, token } = await signIn("quinn");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      detail: "Your account is not in a group allowed to sign in to Larder",
    });
    expect(token).toBeNull();
    expect(userByName("quinn")).toBeNull();
  });

  it("sends a browser it refuses back to the sign-in page with a fixed word of why, never an error document", async () => {
    const jar = new CookieJar();
    const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "quinn", callback);
    const res = await jar.fetch(back.toString(), { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?oidc=refused");
    expect(jar.get("mealie.access_token") ?? null).toBeNull();
  });

  it("never matches an existing account by an e-mail the IdP has not verified", async () => {
    const { res } = await signIn("mallory");
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/not verified/);
    expect(t.larder.users.byEmail("changeme@example.com")?.username).toBe("admin");
  });

  it("refuses a state it did not issue, a callback from another browser, and a replayed code", async () => {
    const jar = new CookieJar();
    const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", callback);
    const code = back.searchParams.get("code") ?? "";

    const forged = await jar.fetch(`${callback}?code=${code}&state=${"x".repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { detail: string }).detail).toMatch(/unknown or has expired/);

    // The forged attempt did not spend the real state; another browser (no binding cookie) cannot use it.
    const elsewhere = await fetch(back, { redirect: "manual" });
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as { detail: string }).detail).toMatch(/another browser/);
    // …and that attempt spent it: the rightful browser must start again.
    const replay = await jar.fetch(back);
    expect(replay.status).toBe(401);
  });

  it("refuses a code issued for another sign-in's state (PKCE verifier and nonce belong to the state)", async () => {
    const jar = new CookieJar();
    const first = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", callback);
    const second = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", callback);
    const swapped = `${callback}?code=${first.searchParams.get("code")}&state=${second.searchParams.get("state")}&iss=${encodeURIComponent(idp.issuer)}`;
    const res = await jar.fetch(swapped);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe(
      "The identity provider did not accept the sign-in code",
    );
  });

  it("refuses a response naming another issuer, and relays the IdP's own refusal", async () => {
    const jar = new CookieJar();
    const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", callback);
    back.searchParams.set("iss", "https://evil.example");
    const res = await jar.fetch(back);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/another identity provider/);

    const denied = await jar.fetch(`${callback}?error=access_denied&error_description=End-User%20aborted`);
    expect(denied.status).toBe(401);
    expect(((await denied.json()) as { detail: string }).detail).toBe(
      "The identity provider refused the sign-in: End-User aborted",
    );
  });

  it("keeps the session 14 days with OIDC_REMEMBER_ME and signs in a public PKCE client", async () => {
    Object.assign(t.larder.config.oidc, {
      REMEMBER_ME: "true",
      CLIENT_ID: IDP_PUBLIC_CLIENT,
      CLIENT_SECRET: "",
    });
    try {
      const { res, token } = await signIn("pete");
      expect(res.status).toBe(302);
      expect(res.headers.get("set-cookie")).toMatch(/Max-Age=1209600/);
      expect(await self(token ?? "")).toMatchObject({ username: "pete" });
    } finally {
      Object.assign(t.larder.config.oidc, { CLIENT_ID: IDP_CLIENT.id, CLIENT_SECRET: IDP_CLIENT.secret });
      delete t.larder.config.oidc.REMEMBER_ME;
    }
  });

  it("does not create accounts when OIDC_SIGNUP_ENABLED is false, but lets existing ones in", async () => {
    t.larder.config.oidc.SIGNUP_ENABLED = "false";
    idp.accounts.rita = { email: "rita@idp.test", name: "Rita", groups: [USER_GROUP] };
    try {
      const { res } = await signIn("rita");
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/sign-up .* is disabled/);
      expect(userByName("rita")).toBeNull();
      expect((await signIn("pete")).res.status).toBe(302);
    } finally {
      delete t.larder.config.oidc.SIGNUP_ENABLED;
    }
  });

  it("answers 401 with a clear message when the IdP is down, at the start or at the callback", async () => {
    const saved = t.larder.config.oidc.CONFIGURATION_URL;
    const warn = vi.spyOn(t.larder.log, "warn");
    t.larder.config.oidc.CONFIGURATION_URL = `http://127.0.0.1:${await freePort()}/.well-known/openid-configuration`;
    try {
      const res = await fetch(`${t.url}/api/auth/oauth`, { redirect: "manual" });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/could not be reached/);
      expect(warn.mock.calls.some(([m]) => /discovery/.test(String(m)))).toBe(true);

      // A second IdP that goes away between the redirect and the callback.
      const brief = await startTestIdp();
      await brief.register([callback]);
      t.larder.config.oidc.CONFIGURATION_URL = brief.discoveryUrl;
      const jar = new CookieJar();
      const back = await browseSignIn(jar, `${t.url}/api/auth/oauth`, "pete", callback);
      await brief.stop();
      const started = Date.now();
      const late = await jar.fetch(back);
      expect(late.status).toBe(401);
      expect(((await late.json()) as { detail: string }).detail).toMatch(/could not be reached/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      t.larder.config.oidc.CONFIGURATION_URL = saved;
      warn.mockRestore();
    }
  });

  // OIDC Discovery §4.3. The hand-written client only logged a warning and went on with the document,
  // so whoever could answer at the configured URL could send sign-ins to another provider's endpoints.
  it("refuses a discovery document that names another issuer than the one it was fetched for", async () => {
    const relay = createServer((req, res) => {
      void fetch(`${idp.issuer}${req.url ?? "/"}`).then(async (r) => {
        res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
    const saved = t.larder.config.oidc.CONFIGURATION_URL;
    const warn = vi.spyOn(t.larder.log, "warn");
    t.larder.config.oidc.CONFIGURATION_URL = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/.well-known/openid-configuration`;
    try {
      const res = await fetch(`${t.url}/api/auth/oauth`, { redirect: "manual" });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/configuration is not its own/);
      expect(warn.mock.calls.some(([m]) => String(m).includes(`names the issuer ${idp.issuer}`))).toBe(true);
    } finally {
      t.larder.config.oidc.CONFIGURATION_URL = saved;
      warn.mockRestore();
      relay.closeAllConnections();
      await new Promise<void>((r) => relay.close(() => r()));
    }
  });

  it("says to use LARDER_FETCH_ALLOW when the IdP is on a private address that is not allowed", async () => {
    const other = await startTestServer({
      oidc: {
        AUTH_ENABLED: "true",
        CONFIGURATION_URL: idp.discoveryUrl,
        CLIENT_ID: IDP_CLIENT.id,
        CLIENT_SECRET: IDP_CLIENT.secret,
      },
    });
    const warn = vi.spyOn(other.larder.log, "warn");
    try {
      const res = await fetch(`${other.url}/api/auth/oauth`, { redirect: "manual" });
      expect(res.status).toBe(401);
      expect(warn.mock.calls.some(([m]) => /LARDER_FETCH_ALLOW/.test(String(m)))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("is off without OIDC_AUTH_ENABLED: no flag in app info and 404 from the sign-in route", async () => {
    t.larder.config.oidc.AUTH_ENABLED = "false";
    try {
      expect(((await (await t.api("/api/app/about")).json()) as Record<string, unknown>).enableOidc).toBe(
        false,
      );
      expect((await fetch(`${t.url}/api/auth/oauth`, { redirect: "manual" })).status).toBe(404);
    } finally {
      t.larder.config.oidc.AUTH_ENABLED = "true";
    }
  });
});
