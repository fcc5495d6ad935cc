/**
 * The header's drawer button tells the drawer's state from the first paint, before the page's script
 * has run or measured the screen: closed on a phone, open on a wide screen. It once showed a phone's
 * closed drawer as open (a close icon, aria-expanded=true) for the time hydration took.
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

const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

/** The drawer button a person sees: its expanded state and whether it draws the close icon. */
const toggle = (page: Page) =>
  page.locator("[data-testid=drawer-toggle]:visible").evaluateAll((els) =>
    els.map((el) => ({
      expanded: el.getAttribute("aria-expanded"),
      closeIcon: el.hasAttribute("data-opened") || el.querySelector("[data-opened]") !== null,
    })),
  );

describeBrowser("the drawer button's first paint", () => {
  let app: App;
  let browser: Browser;
  let cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>>;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    const page = await newPage(browser, app);
    await signIn(page);
    cookies = await page.context().cookies();
    await page.context().close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  for (const [screen, viewport, open] of [
    ["a phone", PHONE, false],
    ["a wide screen", WIDE, true],
  ] as const) {
    const state = [{ expanded: String(open), closeIcon: open }];

    it(`shows the drawer ${open ? "open" : "closed"} on ${screen} in the server's page`, async () => {
      const page = await newPage(browser, app, { viewport, javaScriptEnabled: false });
      await page.context().addCookies(cookies);
      await page.goto(`/g/${app.groupSlug}`);
      expect(await toggle(page)).toEqual(state);
      await page.context().close();
    });

    it(`shows it the same once the page runs on ${screen}`, async () => {
      const errors: string[] = [];
      const page = await newPage(browser, app, { viewport, errors });
      await page.context().addCookies(cookies);
      await page.goto(`/g/${app.groupSlug}`);
      await hydrated(page);
      expect(await toggle(page)).toEqual(state);
      await page.context().close();
      expect(errors).toEqual([]);
    });
  }
});
