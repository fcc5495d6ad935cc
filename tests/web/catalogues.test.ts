/**
 * i18n catalogues as static JSON (decision 0117): pages link each language's catalogues, every namespace
 * in one document (decision 0223), by content hash instead of carrying them in their data; the hashed
 * address is cached for good, any other is revalidated; unknown ones are 404. Needs the UI build
 * (`npm run build`).
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

  it("links the language's catalogues and the English fallback, one document each, and carries none of their text", async () => {
    const { html, links } = await linked("de-DE");
    expect(links.map((l) => l.name).sort()).toEqual(["de-DE", "en-US"]);
    const english = (await (
      await fetch(t.url + links.find((l) => l.name === "en-US")!.href)
    ).json()) as Record<string, unknown>;
    // Every namespace of the language is in its one document.
    expect(Object.keys(english)).toEqual(expect.arrayContaining(["common", "shell", "recipe", "admin"]));
    // A catalogue string that is not on the login page itself is not in its data either.
    const common = english.common as { errors: { pageNotFound: string } };
    expect(html).not.toContain(common.errors.pageNotFound);
  });

  it("names a regional variant's sibling between it and English", async () => {
    const { links } = await linked("fr-CA");
    expect(links.map((l) => l.name)).toEqual(expect.arrayContaining(["fr-FR", "en-US"]));
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
    expect((await fetch(`${t.url}/locales/xx-XX/catalogues.json`)).status).toBe(404);
    expect((await fetch(`${t.url}/locales/en-US/nope.json`)).status).toBe(404);
  });
});
