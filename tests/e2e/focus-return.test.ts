/**
 * Where keyboard focus lands after the recipe page changes under it (WCAG 2.4.3): the view/cook switch
 * and the cook mode's own exit leave focus on the switch, not on <body>; a dialog opened from the recipe
 * menu ("Add to meal plan") gives focus back to the menu's button when it closes, whether it was
 * submitted or cancelled.
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

/** What has focus, as `testid` of it or of its nearest marked ancestor, plus its value if it is an input. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const marked = el.closest("[data-testid]")?.getAttribute("data-testid") ?? el.tagName.toLowerCase();
    return el instanceof HTMLInputElement ? `${marked}:${el.value}` : marked;
  });
}

describeBrowser("focus after the recipe page changes", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Tomato soup",
      recipeInstructions: [{ text: "Simmer the tomatoes." }],
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("keeps focus on the mode switch when the keyboard switches to cook mode and back", async () => {
    await page.goto(`/g/${app.groupSlug}/r/tomato-soup`);
    await hydrated(page);
    await page.getByTestId("mode-switch").locator("input[value=view]").focus();
    await page.keyboard.press("ArrowRight");
    await page.locator(".recipe--cook").waitFor();
    await eventually(() => focused(page)).toBe("mode-switch:cook");
    await page.keyboard.press("ArrowLeft");
    await page.getByTestId("recipe-view").waitFor();
    await eventually(() => focused(page)).toBe("mode-switch:view");
  });

  it("puts focus on the mode switch when cook mode is left by its own button", async () => {
    await page.getByTestId("mode-switch").getByText("Cook", { exact: true }).click();
    await page.locator(".recipe--cook").waitFor();
    await page.locator(".recipe--cook").getByRole("button", { name: "Back to the recipe" }).click();
    await page.getByTestId("recipe-view").waitFor();
    await eventually(() => focused(page)).toBe("mode-switch:view");
  });

  it("gives focus back to the recipe menu's button after 'Add to meal plan' is added or cancelled", async () => {
    for (const close of ["Add", "Cancel"]) {
      await page.getByTestId("recipe-menu").click();
      await page.getByRole("menuitem", { name: "Add to meal plan" }).click();
      const dialog = page.getByTestId("add-to-plan-dialog");
      await dialog.getByTestId("add-to-plan-date").waitFor();
      await dialog.getByRole("button", { name: close, exact: true }).click();
      await dialog.waitFor({ state: "hidden" });
      await eventually(() => focused(page)).toBe("recipe-menu");
    }
    expect(app.larder.mealplans.list(app.adminActor, { perPage: -1 }).items).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
