/**
 * Fixes of an earlier round, replayed: the drawer beside the page is no second landmark named like the
 * <nav> in it, while over a phone's page it is a dialog with that name; and the shopping item form's
 * quantity stops at the server's bound (1,000,000,000), where a larger one was refused after the item
 * had appeared, and the item vanished; and dialogs open without their pop-in animation for people who
 * asked their system for less motion (Mantine's respectReducedMotion).
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

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("earlier fixes", () => {
  let app: App;
  let browser: Browser;
  const errors: string[] = [];

  /** The drawer's role and name, and how many landmarks are named "Main navigation". */
  const drawerNames = (page: Page) =>
    page.evaluate(() => {
      const drawer = document.querySelector("[data-testid=drawer]")!;
      return {
        role: drawer.getAttribute("role"),
        name: drawer.getAttribute("aria-label"),
        named: document.querySelectorAll('[aria-label="Main navigation"]').length,
      };
    });

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("names the drawer only when it is a dialog over a phone's page", async () => {
    const wide = await newPage(browser, app, { errors });
    await signIn(wide);
    await hydrated(wide);
    expect(await drawerNames(wide)).toEqual({ role: null, name: null, named: 1 });
    await wide.context().close();

    const phone = await newPage(browser, app, { errors, viewport: { width: 390, height: 844 } });
    await signIn(phone);
    await hydrated(phone);
    expect(await drawerNames(phone)).toEqual({ role: null, name: null, named: 1 });
    await phone.click("[data-testid=drawer-toggle]:visible");
    await eventually(() => drawerNames(phone)).toEqual({ role: "dialog", name: "Main navigation", named: 2 });
    await phone.context().close();
  });

  it("opens dialogs without animation when the system asks for less motion", async () => {
    /** How long the language dialog's opening animation lasts, in the given motion preference. */
    const openingDuration = async (reducedMotion: "reduce" | "no-preference") => {
      const page = await newPage(browser, app, { errors, reducedMotion });
      await signIn(page);
      await hydrated(page);
      await page.click("[data-testid=language-button]");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const duration = await dialog.evaluate((el) => getComputedStyle(el).transitionDuration);
      await page.context().close();
      return duration;
    };
    expect(await openingDuration("no-preference")).not.toBe("0s");
    expect(await openingDuration("reduce")).toBe("0s");
  });

  it("holds the shopping item's quantity to the server's bound", async () => {
    const list = await app.larder.shopping.createList(app.adminActor, { name: "Big shop" });
    const page = await newPage(browser, app, { errors });
    await signIn(page);
    await page.goto(`/shopping-lists/${list.id}`);
    await hydrated(page);
    const quantity = page.getByTestId("item-quantity");
    // Strict clamping refuses a keystroke that would pass the bound: the field keeps the last good value.
    await quantity.fill("1000000000");
    await quantity.press("End");
    await quantity.pressSequentially("0");
    await quantity.blur();
    expect(await quantity.inputValue()).toBe("1000000000");
    await quantity.fill("99999999999");
    expect(await quantity.inputValue()).toBe("1000000000");
    await page.getByPlaceholder("Food or item").fill("rice");
    await page.getByTestId("add-item").click();
    await eventually(async () =>
      (await app.larder.shopping.getList(app.adminActor, list.id)).listItems.map((i) => i.quantity),
    ).toEqual([1_000_000_000]);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});
