/**
 * The meal planner in Chromium: a week from the household's first day of week; two recipes added by
 * search and a note on different days; one deleted; a random recipe by the rules; a drag to another day;
 * the plan then read back through the API. Also the plan rules screen, the recipe menu's "Add to meal
 * plan", and the planner on a phone (no sideways scrolling).
 * Screenshots: test-results/screenshots/meal-planner-*.png.
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

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

interface WireEntry {
  id: number;
  date: string;
  entryType: string;
  title: string;
  text: string;
  recipeId: string | null;
  recipe: { slug: string } | null;
}

describeBrowser("meal planner", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  const day = (date: string) => page.locator(`[data-testid=plan-day][data-date="${date}"]`);
  const entryNames = (date: string) => day(date).getByTestId("plan-entry-name").allTextContents();
  let days: string[] = [];

  /** Opens a day's add dialog, searches, picks the recipe and saves. */
  const addRecipe = async (date: string, search: string, name: string, type?: string) => {
    await day(date).getByTestId("plan-day-add").click();
    const dialog = page.getByTestId("entry-dialog");
    await dialog.getByTestId("recipe-picker").fill(search);
    await page.getByRole("option", { name }).click();
    if (type) {
      await dialog.getByTestId("entry-type").click();
      await page.getByRole("option", { name: type }).click();
    }
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await eventually(() => entryNames(date)).toContain(name);
  };

  beforeAll(async () => {
    app = await startApp();
    for (const name of ["Chili con carne", "Pancakes", "Tomato soup"])
      await app.larder.recipes.create(app.adminActor, { name });
    // Weeks start on Monday in this household.
    await app.larder.membership.updateHouseholdPreferences(app.adminActor, { firstDayOfWeek: 1 });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("opens the planner from /household/mealplan on the week starting on the household's first day", async () => {
    await page.goto("/household/mealplan");
    await hydrated(page);
    expect(new URL(page.url()).pathname).toBe("/household/mealplan/planner/view");
    await eventually(() => page.getByTestId("plan-day").count()).toBe(7);
    days = await page
      .getByTestId("plan-day")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-date") ?? ""));
    expect(days).toHaveLength(7);
    // Monday, whatever today is.
    expect(new Date(`${days[0]}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(await day(days[0]).locator("h2").textContent()).toMatch(/^Monday/);
    // The drawer links here now.
    await expect(page.getByTestId("nav-planner").getAttribute("aria-current")).resolves.toBe("page");
  });

  it("adds two recipes by search and a note on different days", async () => {
    await addRecipe(days[0], "chili", "Chili con carne");
    await eventually(() => toast("success").textContent()).toBe("Added to the meal plan");
    await addRecipe(days[2], "panc", "Pancakes", "Breakfast");
    await expect(day(days[2]).getByTestId("plan-entry").getAttribute("data-entry-type")).resolves.toBe(
      "breakfast",
    );

    await day(days[4]).getByTestId("plan-day-add").click();
    const dialog = page.getByTestId("entry-dialog");
    await dialog.getByText("Note", { exact: true }).click();
    // A note without a title is refused in the form.
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await eventually(() => dialog.getByText("This Field is Required").count()).toBe(1);
    await dialog.getByTestId("entry-title").fill("Leftovers");
    await dialog.getByTestId("entry-text").fill("Whatever is in the fridge");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await eventually(() => entryNames(days[4])).toEqual(["Leftovers"]);
    await expect(day(days[4]).getByText("Whatever is in the fridge").count()).resolves.toBe(1);
  });

  it("deletes an entry from its menu", async () => {
    await day(days[2]).getByTestId("plan-entry-menu").click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await eventually(() => entryNames(days[2])).toEqual([]);
    await eventually(() => toast("success").textContent()).toBe("Entry deleted");
  });

  it("adds a random recipe by the rules, and says so when no recipe matches them", async () => {
    await day(days[1]).getByTestId("plan-day-random").click();
    await page.getByRole("menuitem", { name: "Dinner" }).click();
    // Gone before the next day's menu opens: while it fades out, both menus offer "Dessert".
    await page.getByRole("menu").waitFor({ state: "detached" });
    await eventually(async () => (await entryNames(days[1])).length).toBe(1);
    const [picked] = await entryNames(days[1]);
    expect(["Chili con carne", "Pancakes", "Tomato soup"]).toContain(picked);

    // A rule nothing matches, for Dessert on any day.
    await app.larder.mealplans.createRule(app.adminActor, {
      entryType: "dessert",
      queryFilterString: 'name = "No such recipe"',
    });
    await day(days[3]).getByTestId("plan-day-random").click();
    await page.getByRole("menuitem", { name: "Dessert" }).click();
    await eventually(() => toast("error").textContent()).toBe("No recipes match your rules");
    expect(await entryNames(days[3])).toEqual([]);
  });

  it("moves an entry to another day by dragging it, and by its menu from the keyboard", async () => {
    const card = day(days[0]).getByTestId("plan-entry");
    const from = await card.boundingBox();
    const to = await day(days[5]).boundingBox();
    if (!from || !to) throw new Error("no layout");
    await page.mouse.move(from.x + 20, from.y + 20);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 30, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await eventually(() => entryNames(days[5])).toEqual(["Chili con carne"]);
    expect(await entryNames(days[0])).toEqual([]);

    // Keyboard: focus the entry's menu, open it, pick "move to the day before".
    await day(days[5]).getByTestId("plan-entry-menu").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menuitem", { name: /day before/ }).focus();
    await page.keyboard.press("Enter");
    await eventually(() => entryNames(days[4])).toEqual(["Chili con carne", "Leftovers"]);
  });

  it("keeps the plan in the API: the recipes, the note, the random pick; not the deleted entry", async () => {
    const res = await page.request.get(
      `/api/households/mealplans?start_date=${days[0]}&end_date=${days[6]}&perPage=-1`,
    );
    expect(res.status()).toBe(200);
    const items = ((await res.json()) as { items: WireEntry[] }).items;
    const summary = items
      .map((e) => ({ date: e.date, type: e.entryType, what: e.recipe?.slug ?? e.title }))
      .sort((a, b) => a.date.localeCompare(b.date) || a.what.localeCompare(b.what));
    const random = items.find((e) => e.date === days[1]);
    expect(summary).toEqual([
      { date: days[1], type: "dinner", what: random?.recipe?.slug },
      { date: days[4], type: "dinner", what: "chili-con-carne" },
      { date: days[4], type: "dinner", what: "Leftovers" },
    ]);
    expect(items.find((e) => e.title === "Leftovers")?.text).toBe("Whatever is in the fridge");
    expect(random?.recipe?.slug).toMatch(/^(chili-con-carne|pancakes|tomato-soup)$/);
    await screenshot(page, "meal-planner-week");
  });

  it("pages to the next and previous week and keeps the chosen number of days", async () => {
    await page.getByTestId("plan-next").click();
    await eventually(() => page.getByTestId("plan-day").first().getAttribute("data-date")).not.toBe(days[0]);
    expect(await page.getByTestId("plan-entry").count()).toBe(0);
    await page.getByTestId("plan-previous").click();
    await eventually(() => page.getByTestId("plan-day").first().getAttribute("data-date")).toBe(days[0]);

    await page.getByTestId("plan-days-count").click();
    await page.getByRole("option", { name: "3", exact: true }).click();
    await eventually(() => page.getByTestId("plan-day").count()).toBe(3);
    // A local preference: a fresh visit shows 3 days too.
    await page.goto("/household/mealplan/planner/view");
    await hydrated(page);
    await eventually(() => page.getByTestId("plan-day").count()).toBe(3);
    await page.evaluate(() => window.localStorage.removeItem("larder.mealplan-number-of-days"));
  });

  it("edits an entry: a note becomes lunch on another day", async () => {
    await page.goto(`/household/mealplan/planner/view?start=${days[0]}&days=7`);
    await hydrated(page);
    const note = day(days[4]).getByTestId("plan-entry").filter({ hasText: "Leftovers" });
    await note.getByTestId("plan-entry-menu").click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByTestId("entry-dialog");
    await dialog.getByTestId("entry-date").fill(days[6]);
    await dialog.getByTestId("entry-type").click();
    await page.getByRole("option", { name: "Lunch" }).click();
    await dialog.getByTestId("entry-title").fill("Leftover soup");
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(() => entryNames(days[6])).toEqual(["Leftover soup"]);
    await expect(day(days[6]).getByTestId("plan-entry").getAttribute("data-entry-type")).resolves.toBe(
      "lunch",
    );
  });

  it("lists, creates, edits and deletes plan rules; a bad filter is refused in the form", async () => {
    await page.goto("/household/mealplan/settings");
    await hydrated(page);
    await expect(page.getByTestId("rule").count()).resolves.toBe(1);
    await page.getByTestId("rule-new").click();
    const dialog = page.getByTestId("rule-dialog");
    await dialog.getByTestId("rule-day").click();
    await page.getByRole("option", { name: "Saturday" }).click();
    await dialog.getByTestId("rule-type").click();
    await page.getByRole("option", { name: "Breakfast" }).click();
    // A new rule opens in the builder; the query filter itself is behind "Edit as text".
    await dialog.getByTestId("rule-advanced").check({ force: true });
    await dialog.getByTestId("rule-filter").fill('badfield = "x"');
    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(() => dialog.locator(".mantine-InputWrapper-error").count()).toBe(1);
    await dialog.getByTestId("rule-filter").fill('name = "Pancakes"');
    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(() => page.getByTestId("rule").count()).toBe(2);
    const saturday = page.getByTestId("rule").filter({ hasText: "Saturday" });
    await expect(saturday.textContent()).resolves.toContain('name = "Pancakes"');

    await saturday.getByTestId("rule-edit").click();
    await dialog.getByTestId("rule-day").click();
    await page.getByRole("option", { name: "Sunday" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(() => page.getByTestId("rule").filter({ hasText: "Sunday" }).count()).toBe(1);
    await screenshot(page, "meal-planner-rules");

    const rules = app.larder.mealplans.listRules(app.adminActor, { perPage: -1 }).items;
    expect(rules.map((r) => [r.day, r.entryType, r.queryFilterString]).sort()).toEqual([
      ["sunday", "breakfast", 'name = "Pancakes"'],
      ["unset", "dessert", 'name = "No such recipe"'],
    ]);

    await page.getByTestId("rule").first().getByTestId("rule-delete").click();
    await page.getByTestId("rule-delete-dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(() => page.getByTestId("rule").count()).toBe(1);
  });

  it("adds a recipe to the meal plan from the recipe page's menu", async () => {
    await page.goto(`/g/${app.groupSlug}/r/tomato-soup`);
    await hydrated(page);
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: "Add to meal plan" }).click();
    const dialog = page.getByTestId("add-to-plan-dialog");
    await dialog.getByTestId("add-to-plan-date").fill(days[3]);
    await dialog.getByTestId("add-to-plan-type").click();
    await page.getByRole("option", { name: "Side" }).click();
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await eventually(() => toast("success").textContent()).toBe("recipe added to mealplan");
    const entries = app.larder.mealplans.between(app.adminActor, days[3], days[3]);
    expect(entries.map((e) => [e.recipe?.slug, e.entryType])).toEqual([["tomato-soup", "side"]]);
    expect(errors).toEqual([]);
  });

  it("fits a phone: one column, no sideways scrolling, the add dialog full screen", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, errors });
    await signIn(phone);
    await phone.goto(`/household/mealplan/planner/view?start=${days[0]}&days=7`);
    await hydrated(phone);
    await phone.getByTestId("plan-day").first().waitFor();
    const fits = () => phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    const widths = await phone
      .getByTestId("plan-day")
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
    expect(new Set(widths).size).toBe(1);
    await screenshot(phone, "meal-planner-phone");
    await phone.locator(`[data-testid=plan-day][data-date="${days[3]}"]`).getByTestId("plan-day-add").click();
    await phone.getByTestId("entry-dialog").getByTestId("recipe-picker").waitFor();
    expect(await fits()).toBe(true);
    await screenshot(phone, "meal-planner-phone-dialog");
    await phone.context().close();
    expect(errors).toEqual([]);
  });
});
