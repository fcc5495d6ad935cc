/**
 * Data management in Chromium (spec §2 /group/data/…): create, edit and merge a food and a unit, a label
 * with a colour, a seeder run with its confirmation, a recipe action, the foods page on a phone, and a
 * member without canOrganize refused (spec §6: redirected to /). Every write is checked in core.
 * Screenshots: test-results/screenshots/data-*.png.
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

describeBrowser("data management", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const dialog = () => page.getByRole("dialog");
  const foods = (q = "") => app.larder.foodsUnits.list(app.adminActor, "foods", q);
  const units = (q = "") => app.larder.foodsUnits.list(app.adminActor, "units", q);
  const labels = () => app.larder.labels.list(app.adminActor, { perPage: -1 }).items;
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();

  /** Pick `option` in the Mantine Select behind `testId` (its options mount a frame after opening). */
  async function choose(testId: string, option: string): Promise<void> {
    await page.getByTestId(testId).click();
    await page.getByRole("option", { name: option, exact: true }).click();
  }

  async function open(path: string): Promise<void> {
    await page.goto(path);
    await hydrated(page);
  }

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

  it("creates a food with a label and on hand", async () => {
    await app.larder.labels.create(app.adminActor, { name: "Grains", color: "#fdd835" });
    await open("/group/data/foods");
    await page.getByTestId("create-open").click();
    await page.getByTestId("food-name").fill("Moon barley");
    await page.getByTestId("food-plural").fill("Moon barleys");
    await choose("food-label", "Grains");
    await page.getByTestId("food-onhand").check();
    await dialog().getByRole("button", { name: "Create" }).click();
    await eventually(() =>
      foods("moon barley").map((f) => [f.name, f.pluralName, f.label?.name, f.onHand]),
    ).toEqual([["Moon barley", "Moon barleys", "Grains", true]]);
    await eventually(() => dialog().count()).toBe(0);
  });

  it("finds the food by searching and renames it, keeping its label and on hand", async () => {
    await open("/group/data/foods");
    await page.getByTestId("settings-search").fill("moon");
    await page.waitForURL(/q=moon/);
    const row = page.getByTestId("food-row-Moon barley");
    await row.getByTestId("row-edit").click();
    await page.getByTestId("food-name").fill("Star barley");
    await dialog().getByRole("button", { name: "Save" }).click();
    await eventually(() =>
      foods("barley")
        .filter((f) => f.name.endsWith(" barley"))
        .map((f) => [f.name, f.label?.name, f.onHand]),
    ).toEqual([["Star barley", "Grains", true]]);
  });

  it("merges another food into it: recipes that named the other name it instead", async () => {
    await app.larder.foodsUnits.create(app.adminActor, "foods", { name: "Kinwa" });
    await app.larder.recipes.create(app.adminActor, {
      name: "Kinwa bowl",
      recipeIngredient: [{ quantity: 1, food: "Kinwa" }],
    });
    await open("/group/data/foods");
    await page.getByTestId("merge-open").click();
    await choose("merge-from", "Kinwa");
    await choose("merge-to", "Star barley");
    await dialog().getByText("“Kinwa” will be removed", { exact: false }).waitFor();
    await dialog().getByRole("button", { name: "Merge" }).click();
    await eventually(() => foods("kinwa").length).toBe(0);
    await eventually(() => dialog().count()).toBe(0);
    expect(app.larder.recipes.find(app.adminActor, "kinwa-bowl").entry.doc.ingredients[0].food).toBe(
      "Star barley",
    );
    await page.getByTestId("settings-search").fill("star");
    await page.getByTestId("food-row-Star barley").waitFor();
    // On hand straight from the list, for this household.
    await page.getByTestId("food-row-Star barley").getByTestId("row-onhand").uncheck();
    await eventually(() => foods("star barley")[0]?.onHand).toBe(false);
    await screenshot(page, "data-foods");
  });

  it("creates a unit with plural forms and an abbreviation, and edits it", async () => {
    await open("/group/data/units");
    await page.getByTestId("create-open").click();
    await page.getByTestId("unit-name").fill("smidgen");
    await page.getByTestId("unit-plural").fill("smidgens");
    await page.getByTestId("unit-abbreviation").fill("smg");
    await page.getByTestId("unit-fraction").uncheck();
    await dialog().getByRole("button", { name: "Create" }).click();
    await eventually(() =>
      units("smidgen").map((u) => [u.name, u.pluralName, u.abbreviation, u.fraction, u.useAbbreviation]),
    ).toEqual([["smidgen", "smidgens", "smg", false, false]]);
    await eventually(() => dialog().count()).toBe(0);

    await page.getByTestId("settings-search").fill("smidgen");
    await page.waitForURL(/q=smidgen/);
    await page.getByTestId("unit-row-smidgen").getByTestId("row-edit").click();
    await page.getByTestId("unit-use-abbreviation").check();
    await dialog().getByRole("button", { name: "Save" }).click();
    await eventually(() => units("smidgen")[0]?.useAbbreviation).toBe(true);
    // The edit kept what it did not touch.
    expect(units("smidgen")[0]).toMatchObject({
      pluralName: "smidgens",
      abbreviation: "smg",
      fraction: false,
    });
  });

  it("merges another unit into it", async () => {
    await app.larder.foodsUnits.create(app.adminActor, "units", { name: "tad" });
    await open("/group/data/units");
    await page.getByTestId("merge-open").click();
    await choose("merge-from", "tad");
    await choose("merge-to", "smidgen");
    await dialog().getByRole("button", { name: "Merge" }).click();
    await eventually(() => units().some((u) => u.name === "tad")).toBe(false);
    await eventually(() => dialog().count()).toBe(0);
    await screenshot(page, "data-units");
  });

  it("creates a label with a colour from the picker's text field", async () => {
    await open("/group/data/labels");
    await page.getByTestId("create-open").click();
    await page.getByTestId("label-name").fill("Produce aisle");
    const color = page.getByTestId("label-color");
    await color.fill("#43a047");
    await color.press("Tab");
    await dialog().getByRole("button", { name: "Create" }).click();
    await eventually(() => labels().find((l) => l.name === "Produce aisle")?.color).toBe("#43a047");
    await page.getByTestId("label-row-Produce aisle").waitFor();
    expect(
      await page.getByTestId("label-row-Produce aisle").getByTestId("label-color-value").textContent(),
    ).toBe("#43a047");
    await screenshot(page, "data-labels");
  });

  it("seeds labels in German after a confirmation, keeping the ones the group has", async () => {
    const before = labels().length;
    await open("/group/data/labels");
    await page.getByTestId("seed-open").click();
    await choose("seed-language", "German (Germany)");
    await dialog().getByRole("button", { name: "Seed" }).click();
    await eventually(() => toast("success").textContent()).toBe("Seeding successful");
    const after = labels();
    expect(after.length).toBeGreaterThan(before);
    expect(after.some((l) => l.name === "Produce aisle")).toBe(true);
    await eventually(() => dialog().count()).toBe(0);
    await screenshot(page, "data-seeded");
  });

  it("creates a recipe action with a placeholder in its address", async () => {
    await open("/group/data/recipe-actions");
    await page.getByTestId("create-open").click();
    await page.getByTestId("action-title").fill("Open in planner");
    await page.getByTestId("action-url").fill("https://planner.example/add?recipe=${slug}");
    await dialog().getByRole("button", { name: "Create" }).click();
    await eventually(() =>
      app.larder.recipeActions.list(app.adminActor, {}).items.map((a) => [a.title, a.actionType, a.url]),
    ).toEqual([["Open in planner", "link", "https://planner.example/add?recipe=${slug}"]]);
    await page.getByTestId("action-row-Open in planner").waitFor();
    await screenshot(page, "data-recipe-actions");
  });

  it("fits the foods page on a phone without horizontal scrolling", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, errors });
    await signIn(phone);
    await phone.goto("/group/data/foods");
    await hydrated(phone);
    await phone.getByTestId("foods-table").waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, "data-foods-phone");
    await phone.context().close();
  });

  it("sends a member without permission to organize back to / and shows them no link", async () => {
    await app.larder.accounts.create(app.adminActor, {
      username: "plainmember",
      fullName: "Plain Member",
      email: "plain@example.com",
      password: "plain-member-pass",
    });
    const other = await newPage(browser, app, { errors });
    await signIn(other, "plainmember", "plain-member-pass");
    await other.goto("/group/data/foods");
    await other.waitForURL((u) => !u.pathname.startsWith("/group"));
    expect(new URL(other.url()).pathname).not.toMatch(/^\/group/);
    await hydrated(other);
    expect(await other.getByTestId("nav-settings-data").count()).toBe(0);
    await screenshot(other, "data-refused");
    await other.context().close();
  });

  it("showed no page errors", () => {
    expect(errors).toEqual([]);
  });
});
