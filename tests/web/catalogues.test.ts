/**
 * i18n catalogues as static JSON (decision 0117): pages link them by content hash instead of carrying
 * them in their data; the hashed address is cached for good, any other is revalidated; unknown ones are
 * 404. Needs the UI build (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const skipUi = withoutUiBuild("catalogues");

describe.skipIf(skipUi)("i18n catalogues", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  const linked = async (lang: string) => {
    const res = await fetch(`${t.url}/login`, { headers: { cookie: `lang=${lang}` } });
    const html = await res.text();
    return {
      html,
      links: [...html.matchAll(/<link[^>]*href="([^"]+)"[^>]*data-catalogue="([^"]+)"/g)].map((m) => ({
        href: m[1].replace(/&amp;/g, "&"),
        name: m[2],
      })),
    };
  };

  it("links the language's catalogues and the English fallback, and carries none of their text", async () => {
    const { html, links } = await linked("de-DE");
    const names = links.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(["en-US/common", "de-DE/common"]));
    expect(names.every((n) => n.startsWith("en-US/") || n.startsWith("de-DE/"))).toBe(true);
    // A catalogue string that is not on the login page itself is not in its data either.
    const common = (await (
      await fetch(t.url + links.find((l) => l.name === "en-US/common")!.href)
    ).json()) as {
      errors: { pageNotFound: string };
    };
    expect(html).not.toContain(common.errors.pageNotFound);
  });

  it("serves a hashed catalogue for good, an unhashed one revalidated, an unknown one as 404", async () => {
    const { links } = await linked("en-US");
    const hashed = await fetch(t.url + links[0].href);
    expect(hashed.status).toBe(200);
    expect(hashed.headers.get("content-type")).toMatch(/^application\/json/);
    expect(hashed.headers.get("cache-control")).toMatch(/immutable/);
    const etag = hashed.headers.get("etag") ?? "";
    const plain = await fetch(t.url + links[0].href.replace(/\?v=.*$/, "?v=old"));
    expect(plain.headers.get("cache-control")).toMatch(/no-cache/);
    const again = await fetch(t.url + links[0].href, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect((await fetch(`${t.url}/locales/xx-XX/common.json`)).status).toBe(404);
    expect((await fetch(`${t.url}/locales/en-US/nope.json`)).status).toBe(404);
  });
});
