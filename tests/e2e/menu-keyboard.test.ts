/**
 * Menus opened from the keyboard (WAI-ARIA menu button pattern): Enter, Space and ArrowDown on a menu's
 * button open it with its first item focused, ArrowUp with its last, and Escape gives focus back to the
 * button. Before, the menu opened with an invisible placeholder focused and ArrowDown did nothing; then
 * ArrowUp opened it on its first item. Checked on the recipe
 * menu (mounted on first use, LazyMenu) and a meal plan entry's menu (a plain Mantine Menu).
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

/** The focused element as "menuitem: its text", or the test id of it or its nearest marked ancestor. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    if (el.getAttribute("role") === "menuitem") return `menuitem: ${el.textContent?.trim()}`;
    return el.closest("[data-testid]")?.getAttribute("data-testid") ?? el.tagName.toLowerCase();
  });
}

describeBrowser("menus from the keyboard", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  /** Opens the menu of `button` with each key in turn and checks its first (ArrowUp: last) item gets focus. */
  const opensOnItems = async (button: string, first: string, last: string) => {
    for (const key of ["ArrowUp", "Enter", "ArrowDown", " "]) {
      await page.getByTestId(button).first().focus();
      await page.keyboard.press(key);
      await eventually(() => focused(page)).toBe(`menuitem: ${key === "ArrowUp" ? last : first}`);
      await page.keyboard.press("Escape");
      await eventually(() => focused(page)).toBe(button);
    }
  };

  beforeAll(async () => {
    app = await startApp();
    const slug = await app.larder.recipes.create(app.adminActor, { name: "Tomato soup" });
    const recipe = app.larder.recipes.get(app.adminActor, slug);
    await app.larder.mealplans.create(app.adminActor, {
      date: new Date().toISOString().slice(0, 10),
      entryType: "dinner",
      recipeId: recipe.id,
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("opens the recipe menu on its first item with Enter, ArrowDown or Space, on its last with ArrowUp", async () => {
    await page.goto(`/g/${app.groupSlug}/r/tomato-soup`);
    await hydrated(page);
    await opensOnItems("recipe-menu", "Edit", "Print preferences");
  });

  it("opens a meal plan entry's menu on its first item with Enter, ArrowDown or Space, on its last with ArrowUp", async () => {
    await page.goto("/household/mealplan/planner/view");
    await hydrated(page);
    await opensOnItems("plan-entry-menu", "Edit", "Delete");
    expect(errors).toEqual([]);
  });
});
