/**
 * Pages served from the render cache (web/app/lib/render-cache.server.ts, decisions 0115 and 0120): the
 * same page again is the same bytes under the same hash-based CSP, compressed once, revalidated with a
 * 304; another viewer never gets the first one's page; a change (a favourite) is on the next page at
 * once. Needs the UI build (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const skipUi = withoutUiBuild("render cache");

describe.skipIf(skipUi)("pages from the render cache", () => {
  let t: TestServer;
  let admin: string;
  let other: string;
  let slug: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login();
    const created = await t.api("/api/recipes", {
      method: "POST",
      token: admin,
      json: { name: "Cached soup" },
    });
    slug = (await created.json()) as string;
    const res = await t.api("/api/admin/users", {
      method: "POST",
      token: admin,
      json: {
        username: "reader",
        fullName: "Second Reader",
        email: "reader@example.com",
        password: "password12",
        group: "Home",
        admin: false,
      },
    });
    expect(res.status).toBe(201);
    other = await t.login("reader@example.com", "password12");
    for (const [name, token] of [
      ["admin", admin],
      ["other", other],
    ] as const)
      ids[name] = ((await (await t.api("/api/users/self", { token })).json()) as { id: string }).id;
  });
  afterAll(async () => t?.close());

  const page = async (token: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}/g/home/r/${slug}`, {
      headers: { cookie: `mealie.access_token=${token}`, accept: "text/html", ...headers },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    return { html, csp: res.headers.get("content-security-policy"), headers: res.headers };
  };

  it("serves the same page again as the same bytes under the same policy, with no nonce", async () => {
    const first = await page(admin);
    const second = await page(admin);
    expect(second.html).toBe(first.html);
    expect(second.csp).toBe(first.csp);
    expect(second.csp).toMatch(/script-src 'self' 'sha256-/);
    expect(second.html).not.toMatch(/\snonce=/);
  });

  it("sends a stored page compressed as asked, and answers its validator with a 304", async () => {
    const plain = await page(admin);
    const br = await page(admin, { "accept-encoding": "br, gzip" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(br.html).toBe(plain.html); // fetch decodes it
    const gz = await page(admin, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.html).toBe(plain.html);
    const etag = br.headers.get("etag") ?? "";
    expect(etag).toMatch(/^".+"$/);
    expect(gz.headers.get("etag")).not.toBe(etag);
    const again = await fetch(`${t.url}/g/home/r/${slug}`, {
      headers: {
        cookie: `mealie.access_token=${admin}`,
        "accept-encoding": "br, gzip",
        "if-none-match": etag,
        "cache-control": "max-age=0",
      },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-security-policy")).toBe(br.csp);
  });

  it("never gives one viewer the page rendered for another", async () => {
    await page(admin);
    const mine = await page(admin);
    const theirs = await page(other);
    expect(mine.html).toContain(ids.admin);
    expect(theirs.html).toContain(ids.other);
    expect(theirs.html).not.toContain(ids.admin);
    expect(mine.html).not.toContain(ids.other);
  });

  it("shows a change on the very next page, not the page remembered from before it", async () => {
    const before = await page(other);
    const fav = await t.api(`/api/users/${ids.other}/favorites/${slug}`, { method: "POST", token: other });
    expect(fav.status).toBeLessThan(300);
    const after = await page(other);
    expect(before.html).toContain('aria-pressed="false" data-testid="favorite"');
    expect(after.html).toContain('aria-pressed="true" data-testid="favorite"');
  });
});
