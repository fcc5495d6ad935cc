/**
 * Stylesheets before everything a page preloads (decision 0201): every paint waits for them, and on a
 * slow connection a browser opens six connections to a host, so a stylesheet written after the module
 * and catalogue preloads queued behind them. Needs the UI build (`npm run build`).
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

  const head = async (path: string) => {
    const res = await fetch(t.url + path, { headers: { cookie: `mealie.access_token=${token}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    return html.slice(0, html.indexOf("</head>"));
  };
  const links = (html: string) =>
    [...html.matchAll(/<link ([^>]*)>/g)].map((m) => ({
      rel: /rel="([^"]+)"/.exec(m[1])?.[1] ?? "",
      href: /href="([^"]+)"/.exec(m[1])?.[1] ?? "",
      media: /media="([^"]+)"/.exec(m[1])?.[1] ?? null,
    }));

  it("writes every stylesheet before any preload, the app's in one file and the theme's last", async () => {
    const { slug } = await newRecipe(t, token, "Head Order Soup");
    for (const path of ["/g/home", `/g/home/r/${slug}`]) {
      const all = links(await head(path));
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
});
