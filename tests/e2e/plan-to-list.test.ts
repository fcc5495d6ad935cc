/**
 * The planner's "Add to shopping list" in Chromium: the recipes planned on the days shown go on a list
 * in one step, a recipe planned twice counted twice, a food on hand left out, days before today
 * unticked; and the dialog on a phone. Screenshot: test-results/screenshots/plan-to-list.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";
import { addDays, localDate } from "../../web/app/lib/mealplan.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("the planner's shopping list", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const ids: Record<string, string> = {};
  const today = localDate();

  beforeAll(async () => {
    app = await startApp();
    const recipes = {
      "Bean Chili": [
        { quantity: 2, unit: "cup", food: "black beans" },
        { quantity: 1, food: "onion" },
        { note: "salt", food: "salt" },
      ],
      "Rice Bowl": [
        { quantity: 1, unit: "cup", food: "rice" },
        { quantity: 1, food: "onion" },
      ],
      "Old Stew": [{ quantity: 1, food: "turnip" }],
    };
    for (const [name, recipeIngredient] of Object.entries(recipes)) {
      const slug = await app.larder.recipes.create(app.adminActor, { name, recipeIngredient });
      ids[name] = app.larder.recipes.get(app.adminActor, slug).id;
    }
    const salt = app.larder.foodsUnits.list(app.adminActor, "foods").find((f) => f.name === "salt")!;
    await app.larder.foodsUnits.update(app.adminActor, "foods", salt.id, {
      name: "salt",
      householdsWithIngredientFood: ["family"],
    });
    const plan = [
      { date: today, recipeId: ids["Bean Chili"] },
      { date: addDays(today, 1), recipeId: ids["Bean Chili"] },
      { date: addDays(today, 1), recipeId: ids["Rice Bowl"], entryType: "lunch" },
      { date: addDays(today, 1), title: "Eat out" },
      { date: addDays(today, -1), recipeId: ids["Old Stew"] },
    ];
    for (const p of plan) await app.larder.mealplans.create(app.adminActor, { entryType: "dinner", ...p });
    await app.larder.shopping.createList(app.adminActor, { name: "Groceries" });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors, viewport: { width: 390, height: 844 } });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("puts the recipes still to cook on the list, each as often as it is planned, without what is on hand", async () => {
    // Three days from yesterday, so the days shown hold every entry whatever the week's first day.
    await page.goto(`/household/mealplan/planner/view?start=${addDays(today, -1)}&days=3`);
    await hydrated(page);
    await page.getByTestId("plan-to-list").click();
    const dialog = page.getByTestId("plan-to-list-dialog");
    // One list: straight to the recipes.
    await dialog.getByText("Add to Groceries").waitFor();
    const entries = dialog.getByTestId("plan-to-list-entry");
    await eventually(() => entries.count()).toBe(4);
    // The test id is on each checkbox's input; its label is in the checkbox's root.
    const ticked = await entries.evaluateAll((els) =>
      els.map(
        (e) =>
          [e.closest("[class*=Checkbox-root]")?.textContent ?? "", (e as HTMLInputElement).checked] as const,
      ),
    );
    expect(ticked.some(([l]) => l.includes("Eat out"))).toBe(false);
    expect(ticked.map(([l]) => l)).toEqual([
      expect.stringMatching(/Dinner · Old Stew$/),
      expect.stringMatching(/Dinner · Bean Chili$/),
      expect.stringMatching(/Dinner · Bean Chili$/),
      expect.stringMatching(/Lunch · Rice Bowl$/),
    ]);
    // Yesterday's stew is not ticked; the rest are.
    expect(ticked.filter(([, on]) => !on).map(([l]) => l)).toEqual([expect.stringContaining("Old Stew")]);
    await screenshot(page, "plan-to-list");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await dialog.getByRole("button", { name: "Add to list" }).click();
    await eventually(() => page.locator("[data-toast=success]").last().textContent()).toBe(
      "Added the planned recipes to Groceries",
    );

    const lists = await app.larder.shopping.listLists(app.adminActor, { perPage: -1 });
    const list = await app.larder.shopping.getList(app.adminActor, lists.items[0].id);
    const refs = Object.fromEntries(list.recipeReferences.map((r) => [r.recipe?.name, r.recipeQuantity]));
    expect(refs).toEqual({ "Bean Chili": 2, "Rice Bowl": 1 });
    const items = list.listItems.map((i) => [i.food?.name ?? i.note, i.quantity]);
    expect(items).toEqual(
      expect.arrayContaining([
        // Matched to the seeded foods as the recipes were saved.
        ["black bean", 4],
        ["onion", 3],
        ["long-grain rice", 1],
      ]),
    );
    expect(items.some(([name]) => name === "salt" || name === "turnip")).toBe(false);
    expect(errors).toEqual([]);
  });
});
