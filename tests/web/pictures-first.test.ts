/**
 * A page's main picture is asked for before its scripts (decision 0223): over HTTP/1.1 a browser fetches
 * images at low priority, so on a slow phone connection the recipe's picture came seconds after its text.
 * The recipe page's picture and the first cards of the group home carry fetchpriority="high" (and so do
 * the preloads React writes for them); the recipe page offers the 640-pixel rendering to small screens.
 * Needs the UI build (`npm run build`).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const skipUi = withoutUiBuild("pictures first");

describe.skipIf(skipUi)("pictures a page shows first", () => {
  let t: TestServer;
  let admin: string;
  const slugs: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    admin = await t.login();
    const jpg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#27ae60" } })
      .jpeg()
      .toBuffer();
    for (const name of ["Picture soup", "Picture stew", "Picture pie"]) {
      const created = await t.api("/api/recipes", { method: "POST", token: admin, json: { name } });
      const slug = (await created.json()) as string;
      const form = new FormData();
      form.append("image", new Blob([new Uint8Array(jpg)]), "dish.jpg");
      form.append("extension", "jpg");
      const put = await t.api(`/api/recipes/${slug}/image`, { method: "PUT", token: admin, body: form });
      expect(put.status).toBe(200);
      slugs.push(slug);
    }
  });
  afterAll(async () => t?.close());

  const page = async (path: string) => {
    const res = await fetch(t.url + path, { headers: { cookie: `mealie.access_token=${admin}` } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const tags = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[0]);

  it("asks for the recipe's picture first, the small rendering for a small screen", async () => {
    const html = await page(`/g/home/r/${slugs[0]}`);
    const [img] = tags(html, /<img[^>]*recipe__image[^>]*>/g);
    expect(img).toMatch(/fetchPriority="high"/i);
    expect(img).toMatch(/loading="eager"/);
    expect(img).toMatch(/srcSet="[^"]*min-original\.webp[^"]* 640w, [^"]*\/original\.webp[^"]* 1200w"/i);
    expect(img).toMatch(/sizes="[^"]+"/);
    const preloads = tags(html, /<link rel="preload" as="image"[^>]*>/g);
    expect(preloads.some((l) => /fetchPriority="high"/i.test(l) && l.includes("min-original.webp"))).toBe(
      true,
    );
  });

  it("asks for the first two cards' pictures first and loads the rest of the first screen eagerly", async () => {
    const html = await page("/g/home");
    const cards = tags(html, /<img[^>]*recipe-image[^>]*>/g);
    expect(cards.length).toBeGreaterThanOrEqual(3);
    expect(cards.slice(0, 2).every((c) => /fetchPriority="high"/i.test(c))).toBe(true);
    expect(cards.slice(2).some((c) => /fetchPriority/i.test(c))).toBe(false);
    expect(cards.every((c) => c.includes('loading="eager"'))).toBe(true);
  });
});
