/**
 * The HTTP edge (web/server/edge.ts, applied in web/server/server.ts): one same-origin rule for every
 * unsafe request, UI and /api alike, answered with a 403 and a reason — never a 500, never accepted.
 * Each case replays a cross-site request forgery a browser could be made to send.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { SESSION_COOKIE } from "../../web/server/edge.js";
import { FIRST_ADMIN } from "../../core/larder.js";

const FOREIGN = "http://evil.example";

describe("one same-origin rule at the HTTP edge", () => {
  let t: TestServer;
  let token: string;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestServer();
    token = await t.login();
    cookie = `${SESSION_COOKIE}=${token}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, headers: Record<string, string>, body = "username=a&password=b") =>
    fetch(t.url + path, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
      body,
    });

  it.each([
    ["a foreign Origin", { Origin: FOREIGN }],
    ["no Origin and no Referer", {}],
    ["Origin: null", { Origin: "null" }],
    ["a foreign Referer and no Origin", { Referer: `${FOREIGN}/page` }],
    ["a malformed Origin", { Origin: "not a url" }],
  ])("refuses a login post with %s: 403 with a message, not a 500", async (_name, headers) => {
    const res = await post("/login", headers);
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/Cross-origin request refused/);
  });

  it("refuses a cross-site post to /api/auth/token (login CSRF); a script, which sends no Origin, signs in", async () => {
    const body = "username=changeme%40example.com&password=MyPassword";
    const forged = await post("/api/auth/token", { Origin: FOREIGN }, body);
    expect(forged.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();
    expect((await post("/api/auth/token", {}, body)).status).toBe(200);
    expect((await post("/api/auth/token", { Origin: t.url }, body)).status).toBe(200);
  });

  it.each(["/%09/evil.example/phish", "/%0A/evil.example", "/%5Cevil.example", "%2F%2Fevil.example"])(
    "sends a signed-in visitor of /login?redirectTo=%s to a page of its own, never elsewhere",
    async (target) => {
      const res = await fetch(`${t.url}/login?redirectTo=${target}`, {
        redirect: "manual",
        headers: { Cookie: cookie },
      });
      expect(res.status).toBe(302);
      const location = res.headers.get("location") ?? "";
      expect(location).not.toMatch(/evil/);
      expect(location.startsWith("/") && !location.startsWith("//")).toBe(true);
    },
  );

  it.each(["/logout", "/_lang", "/g/home/r/create/new", "/user/profile", "/g/home/r/anything"])(
    "refuses a signed-in user's unsafe UI request to %s from another site",
    async (path) => {
      const forged: Record<string, string>[] = [{ Origin: FOREIGN, Cookie: cookie }, { Cookie: cookie }];
      for (const headers of forged) {
        const res = await post(path, headers, "intent=delete&lang=de-DE");
        expect(res.status, JSON.stringify(headers)).toBe(403);
      }
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const res = await fetch(t.url + path, { method, headers: { Origin: FOREIGN, Cookie: cookie } });
        expect(res.status, method).toBe(403);
      }
    },
  );

  it("lets the same site's login post through (Origin, or Referer without Origin)", async () => {
    const own: Record<string, string>[] = [{ Origin: t.url }, { Referer: `${t.url}/login` }];
    for (const headers of own) {
      const res = await post("/login", headers);
      expect(res.status, JSON.stringify(headers)).not.toBe(403);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("still serves safe requests from anywhere", async () => {
    const res = await fetch(`${t.url}/api/app/about`, { headers: { Origin: FOREIGN, Cookie: cookie } });
    expect(res.status).toBe(200);
  });

  it("refuses a cookie-authenticated unsafe /api request from another site or with no origin, in Mealie's shape", async () => {
    const forged: Record<string, string>[] = [{ Origin: FOREIGN }, {}];
    for (const headers of forged) {
      const res = await t.api("/api/groups/labels", {
        method: "POST",
        headers: { Cookie: cookie, ...headers },
        json: { name: "forged" },
      });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toEqual({ detail: "Cross-origin request refused" });
    }
    const labels = (await (await t.api("/api/groups/labels", { token })).json()) as {
      items: { name: string }[];
    };
    expect(labels.items.map((l) => l.name)).not.toContain("forged");
  });

  it("accepts /api writes with a bearer token (no browser cookie to borrow) or from the same site", async () => {
    const bearer = await t.api("/api/groups/labels", { method: "POST", token, json: { name: "by token" } });
    expect(bearer.ok).toBe(true);
    const sameSite = await t.api("/api/groups/labels", {
      method: "POST",
      headers: { Cookie: cookie, Origin: t.url },
      json: { name: "same site" },
    });
    expect(sameSite.ok).toBe(true);
  });

  it("writes the session cookie with the cookie package's serialisation and the shared attributes", async () => {
    const res = await fetch(`${t.url}/api/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: FIRST_ADMIN.username, password: FIRST_ADMIN.password }),
    });
    const set = res.headers.get("set-cookie") ?? "";
    expect(set).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=[^;]+;`));
    expect(set).toMatch(/; Path=\//);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(set).toMatch(/; Max-Age=\d+/);
  });
});
