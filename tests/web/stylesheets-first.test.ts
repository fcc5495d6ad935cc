/**
 * Stylesheets before everything a page preloads (decision 0201): every paint waits for them, and on a
 * slow connection a browser opens six connections to a host, so a stylesheet written after the module
 * and catalogue preloads queued behind them. A browser's first visit gets them inline instead (decision
 * 0309): the round trip for them was most of a slow connection's first paint. Needs the UI build
 * (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newRecipe } from "../support/members.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const skipUi = withoutUiBuild("stylesheets-first");

describe.skipIf(skipUi)("a page's head", () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    token = await t.login();
  });
  afterAll(async () => t?.close());

  /**
   * The page's head as a browser loads it; `styles`: the cookie of a browser that has the build's
   * stylesheets cached; `script`: asked as a script does, without Sec-Fetch-Dest.
   */
  const head = async (path: string, styles?: string, script = false) => {
    const cookie = `mealie.access_token=${token}${styles ? `; larder_styles=${styles}` : ""}`;
    const res = await fetch(t.url + path, {
      headers: { cookie, ...(script ? {} : { "sec-fetch-dest": "document" }) },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    return html.slice(0, html.indexOf("</head>"));
  };
  const buildOf = (html: string) => /<meta name="larder-styles" content="([^"]+)"\/>/.exec(html)?.[1];
  const inlined = (html: string) =>
    [
      ...html.matchAll(
        /<style data-inline-href="([^"]+)" data-inline-precedence="([^"]+)">([\s\S]*?)<\/style>/g,
      ),
    ].map((m) => ({ href: m[1], precedence: m[2], text: m[3] }));
  const links = (html: string) =>
    [...html.matchAll(/<link ([^>]*)>/g)].map((m) => ({
      rel: /rel="([^"]+)"/.exec(m[1])?.[1] ?? "",
      href: /href="([^"]+)"/.exec(m[1])?.[1] ?? "",
      media: /media="([^"]+)"/.exec(m[1])?.[1] ?? null,
    }));

  it("writes every stylesheet before any preload, the app's in one file and the theme's last", async () => {
    const { slug } = await newRecipe(t, token, "Head Order Soup");
    const build = buildOf(await head("/g/home"));
    expect(build).toMatch(/^[\w-]+$/);
    for (const path of ["/g/home", `/g/home/r/${slug}`]) {
      const all = links(await head(path, build));
      const sheets = all.filter((l) => l.rel === "stylesheet");
      const firstPreload = all.findIndex((l) => l.rel === "preload" || l.rel === "modulepreload");
      expect(firstPreload).toBeGreaterThan(0);
      expect(all.slice(0, sheets.length).every((l) => l.rel === "stylesheet")).toBe(true);
      expect(sheets.filter((l) => /\/assets\/root-[^/]+\.css$/.test(l.href))).toHaveLength(1);
      expect(sheets.at(-1)?.href).toMatch(/^\/theme\.css\?v=/);
      // A sheet for print alone holds no paint on a screen.
      for (const s of sheets.filter((l) => /\/print-[^/]+\.css$/.test(l.href))) expect(s.media).toBe("print");
    }
  });

  it("holds a first visit's stylesheets inline, in their order, with print's still linked", async () => {
    const { slug } = await newRecipe(t, token, "Inline Style Stew");
    const page = await head(`/g/home/r/${slug}`);
    const styles = inlined(page);
    expect(styles.map((s) => s.href)).toEqual([
      expect.stringMatching(/^\/assets\/root-[^/]+\.css$/),
      expect.stringMatching(/^\/assets\/recipe-page-[^/]+\.css$/),
      expect.stringMatching(/^\/assets\/timeline-[^/]+\.css$/),
      expect.stringMatching(/^\/theme\.css\?v=/),
    ]);
    // Each holds the very text its address serves.
    for (const s of styles) {
      const served = await (await fetch(t.url + s.href)).text();
      expect(s.text).toBe(served);
    }
    expect(styles.at(-1)?.precedence).toBe("theme");
    const sheets = links(page).filter((l) => l.rel === "stylesheet");
    expect(sheets).toEqual([expect.objectContaining({ media: "print" })]);
    // Still before every preload.
    expect(page.indexOf("<style data-inline-href")).toBeLessThan(page.indexOf('rel="modulepreload"'));
    expect(buildOf(page)).toBe(/-([\w-]+)\.css$/.exec(styles[0].href)?.[1]);
  });

  it("gives a browser with the stylesheets the links, and one without them the inline page, whichever came first", async () => {
    const { slug } = await newRecipe(t, token, "Twice Stored Broth");
    const path = `/g/home/r/${slug}`;
    const build = buildOf(await head("/g/home"))!;
    for (let round = 0; round < 2; round++) {
      expect(inlined(await head(path, build))).toEqual([]);
      expect(inlined(await head(path))).toHaveLength(4);
      // A cookie of another build (the server was updated since) is no cookie.
      expect(inlined(await head(path, "an-older-build"))).toHaveLength(4);
      // A script keeps no cache of stylesheets to speak of: it gets the small page with links.
      expect(inlined(await head(path, undefined, true))).toEqual([]);
    }
  });
});
