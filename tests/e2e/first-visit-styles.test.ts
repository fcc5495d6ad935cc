/**
 * A first visit's stylesheets inline (decision 0309), in Chromium: the page is styled before any sheet
 * is fetched; the browser then links and caches the sheets, React takes those links for its own (no
 * second copy), the inline copies go, and the cookie makes the next page come with links.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  ADMIN,
  describeBrowser,
  hydrated,
  launchBrowser,
  newPage,
  startApp,
  type App,
} from "./support/browser.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("a first visit's stylesheets", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let slug: string;
  const errors: string[] = [];
  /** Every document the page loaded, and whether it came with its stylesheets inline. */
  const documents: { path: string; inline: boolean }[] = [];

  beforeAll(async () => {
    app = await startApp();
    slug = await app.larder.recipes.create(app.adminActor, { name: "First Visit Soup" });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors, viewport: { width: 390, height: 844 } });
    page.on("response", (res) => {
      if (res.request().resourceType() !== "document") return;
      void res.text().then(
        (html) =>
          documents.push({ path: new URL(res.url()).pathname, inline: html.includes("data-inline-href") }),
        () => {},
      );
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  const sheets = () =>
    page.evaluate(() => ({
      inline: [...document.querySelectorAll<HTMLStyleElement>("style[data-inline-href]")].map(
        (s) => s.dataset.inlineHref,
      ),
      links: [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((l) =>
        new URL(l.href).pathname.replace(/-[\w-]{8}\.css$/, ".css"),
      ),
      cookie: document.cookie,
    }));

  it("styles the page from the HTML, then links and caches the sheets, once each", async () => {
    // Signed in without opening a page, so that the recipe is the browser's first.
    const res = await page.request.post("/api/auth/token", {
      form: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(res.ok()).toBe(true);
    await page.goto(`/g/home/r/${slug}`);
    await hydrated(page);
    // Styled already: the root sheet's page background and the shell's layout are in force.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe("rgba(0, 0, 0, 0)");
    await eventually(async () => (await sheets()).inline).toEqual([]);
    const now = await sheets();
    expect(now.cookie).toMatch(/(^|; )larder_styles=[\w-]+/);
    // Each sheet linked once: React found the browser's links and rendered no copy of its own.
    expect(now.links.sort()).toEqual(
      [
        "/assets/print.css",
        "/assets/recipe-page.css",
        "/assets/root.css",
        "/assets/timeline.css",
        "/theme.css",
      ].sort(),
    );
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
    expect(documents.filter((d) => d.path === `/g/home/r/${slug}`)).toEqual([
      { path: `/g/home/r/${slug}`, inline: true },
    ]);
  });

  it("moves on in the browser, and gets the next page with links from its cache", async () => {
    // A navigation in the app: the home's own sheets join those already there.
    await page
      .getByRole("link", { name: /home|recipes/i })
      .first()
      .click();
    await page.waitForURL((u) => u.pathname === "/g/home");
    await hydrated(page);
    await page.goto(`/g/home/r/${slug}`);
    await hydrated(page);
    expect(documents.at(-1)).toEqual({ path: `/g/home/r/${slug}`, inline: false });
    const now = await sheets();
    expect(now.inline).toEqual([]);
    expect(now.links.filter((l) => l === "/assets/root.css")).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
