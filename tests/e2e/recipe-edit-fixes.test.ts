/**
 * What the part-1 walk found in edit mode, replayed in Chromium: the "Cook time" field shows a time kept
 * as `cookTime` and saving it leaves one cook time in the file; a step's linked ingredients read as the
 * ingredient list does; edit mode fits a 390×844 phone with no sideways scroll; /g/{group}/recipe/{slug}
 * redirects to /r/{slug}. Screenshots: test-results/screenshots/recipe-edit-fixes-*.png.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  interactive,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("recipe edit mode fixes", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const view = () => `/g/${app.groupSlug}/r/garlic-greens`;
  const file = () => join(app.dataDir, "groups", app.groupSlug, "recipes", "garlic-greens.md");
  const openEditor = async () => {
    await page.goto(`${view()}?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
  };

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Garlic Greens",
      cookTime: "12 minutes",
      recipeIngredient: [
        { referenceId: "a", quantity: 2, unit: "tablespoon", food: "olive oil" },
        { referenceId: "b", quantity: 2, unit: "clove", food: "garlic", note: "sliced thinly, the long way" },
        { referenceId: "c", quantity: 0.5, unit: "teaspoon", food: "salt" },
      ],
      recipeInstructions: [
        {
          text: "Warm the oil and garlic, then add the greens and salt.",
          ingredientReferences: [{ referenceId: "a" }, { referenceId: "b" }, { referenceId: "c" }],
        },
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors, viewport: { width: 390, height: 844 } });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("redirects /g/{group}/recipe/{slug} to the recipe page", async () => {
    await page.goto(`/g/${app.groupSlug}/recipe/garlic-greens`);
    await page.waitForURL((u) => u.pathname === view());
    await hydrated(page);
    await expect(page.locator("h1.recipe__title").textContent()).resolves.toBe("Garlic Greens");
  });

  it("fits edit mode on a 390 px phone with no sideways scroll", async () => {
    await openEditor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "recipe-edit-fixes-phone");
  });

  it("labels a step's linked ingredients as the ingredient list shows them", async () => {
    await page.goto(view());
    await hydrated(page);
    const listed = (await page.locator(".ingredients .ingredient__text").allTextContents()).map((s) =>
      s.replace(/\s+/g, " ").trim(),
    );
    await openEditor();
    const pills = (await page.locator(".step-row .mantine-Pill-label").allTextContents()).map((s) =>
      s.replace(/\s+/g, " ").trim(),
    );
    expect(pills).toHaveLength(3);
    expect(pills).toEqual(listed);
  });

  it("shows a cook time kept as cookTime and saves one cook time", async () => {
    const field = page.getByTestId("edit-cook-time");
    await expect(field.inputValue()).resolves.toBe("12 minutes");
    await field.fill("15 minutes");
    await page.getByTestId("save-recipe").click();
    await page.waitForURL((u) => u.pathname === view() && !u.searchParams.has("edit"));
    const text = await readFile(file(), "utf8");
    const front = text.split(/^---$/m)[1] ?? "";
    expect(front.match(/^(cookTime|performTime):.*$/gm)).toEqual(["cookTime: 15 minutes"]);
    await eventually(() => app.larder.recipes.get(app.adminActor, "garlic-greens").cookTime).toBe(
      "15 minutes",
    );
  });

  it("parses a plain-text ingredient with the parser kept as a preference", async () => {
    await openEditor();
    await page.getByTestId("add-ingredient").click();
    await page.getByTestId("ingredient-note").last().fill("3 cups spinach leaves");
    await page.getByTestId("parse-parser").click();
    await page.getByRole("option", { name: "Rules" }).click();
    await expect(page.evaluate(() => localStorage.getItem("larder.ingredient-parser"))).resolves.toBe(
      "brute",
    );
    await page.getByTestId("parse-button").click();
    const row = page.locator(".ing-row").last();
    await eventually(() => row.locator(".ing-row__food input").inputValue()).toMatch(/spinach/i);
    await expect(row.locator(".ing-row__amount input").inputValue()).resolves.toBe("3");
    await expect(row.locator(".ing-row__unit input").inputValue()).resolves.toMatch(/^cups?$/i);
    await screenshot(page, "recipe-edit-fixes-parsed");
    expect(errors).toEqual([]);
  });
});
