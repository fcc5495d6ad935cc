/**
 * Controls mounted on first use (decision 0121) behave as Mantine's own: the recipe menu, opened from the
 * keyboard, gives focus back to its button when it closes (the first time, when it mounts, and after);
 * a tooltip shows on the first hover over its icon; a dialog opened from the menu shows and closes.
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

describeBrowser("controls mounted on first use", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
    await app.larder.recipes.create(app.adminActor, { name: "Lazy soup" });
    page = await newPage(browser, app, { errors });
    await signIn(page);
    await page.goto(`/g/${app.groupSlug}/r/lazy-soup`);
    await hydrated(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);

  it("returns focus to the menu's button after Escape, on first use and after", async () => {
    for (let i = 0; i < 2; i++) {
      await page.getByTestId("recipe-menu").focus();
      await page.keyboard.press("Enter");
      await page.getByRole("menu").waitFor();
      // Opened from the keyboard, the menu takes the focus a moment after it shows (Mantine's focus
      // trap); an Escape before that goes to the button, and the menu rightly stays open.
      await expect
        .poll(() => page.evaluate(() => !!document.activeElement?.closest("[role=menu]")), { timeout: 5000 })
        .toBe(true);
      await page.keyboard.press("Escape");
      await page.getByRole("menu").waitFor({ state: "detached" });
      expect(await focused()).toBe("recipe-menu");
    }
  });

  it("shows a tooltip on the first hover over its icon, and hides it when the pointer leaves", async () => {
    await page.getByTestId("favorite").hover();
    await expect(page.getByRole("tooltip").textContent()).resolves.toBe("Add to favourites");
    await page.mouse.move(0, 0);
    await page.getByRole("tooltip").waitFor({ state: "detached" });
  });

  it("opens a dialog from the menu, then closes it", async () => {
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: "Print preferences" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
  });
});
