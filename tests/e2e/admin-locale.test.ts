/**
 * Admin pages in the page's language: the site settings name the theme colours ("Primary (light)",
 * "Primärfarbe (hell)") where they showed the API's keys ("lightPrimary"); the maintenance page writes
 * its sizes and counts with the language's digits and units, where Arabic got "12.3 MB" and "0".
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  launchBrowser,
  newPage,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";

describeBrowser("admin pages in the page's language", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  const visit = async (path: string, lang: string) => {
    await page.context().addCookies([{ name: "lang", value: lang, url: app.url }]);
    await page.goto(path);
    await hydrated(page);
  };

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("names the theme colours, not their keys", async () => {
    await visit("/admin/site-settings", "en-US");
    const colors = page.getByTestId("theme-colors");
    await expect(colors.textContent()).resolves.toContain("Primary (light)");
    await expect(colors.textContent()).resolves.toContain("THEME_DARK_ERROR");
    await expect(colors.textContent()).resolves.not.toMatch(/lightPrimary|darkError/);
    await visit("/admin/site-settings", "de-DE");
    await expect(colors.textContent()).resolves.toContain("Primärfarbe (hell)");
  });

  it("writes the maintenance page's sizes and counts in Arabic digits", async () => {
    await visit("/admin/maintenance", "ar-SA");
    const sizes = await page.getByTestId("maintenance-storage").textContent();
    expect(sizes).toMatch(/[٠-٩]/);
    expect(sizes).not.toMatch(/[0-9]|MB|kB|bytes/);
    const cleanable = await page.getByText(/يمكن تنظيف/).textContent();
    expect(cleanable).toMatch(/٠/);
    expect(cleanable).not.toMatch(/[0-9]/);
    expect(errors).toEqual([]);
  });
});
