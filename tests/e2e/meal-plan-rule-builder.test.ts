/**
 * The plan rules' filter builder in Chromium: a rule built from a tag and a category (names with
 * quotes, commas and non-Latin letters) with a live count, saved, read back into the same conditions
 * after a reload, and obeyed by the API's random pick; a hand-written filter the builder cannot show
 * kept verbatim, and so is a condition on a tag that no longer exists; the builder by keyboard on a phone-sized screen.
 * Screenshots: test-results/screenshots/meal-plan-rule-builder-*.png.
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

const TAG = 'Mom\'s "quick", 速い';
const CATEGORY = "Dîner, le soir";
const SATURDAY = "2023-02-25";
const RULES = "/household/mealplan/settings";

interface WireRule {
  id: string;
  day: string;
  entryType: string;
  queryFilterString: string;
}

describeBrowser("meal plan rule builder", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let tagId = "";
  let categoryId = "";

  const rules = async (): Promise<WireRule[]> => {
    const res = await page.request.get("/api/households/mealplans/rules?perPage=-1");
    return ((await res.json()) as { items: WireRule[] }).items;
  };
  const organizerId = async (kind: string, name: string) => {
    const res = await page.request.get(`/api/organizers/${kind}?perPage=-1`);
    const found = ((await res.json()) as { items: { id: string; name: string }[] }).items.find(
      (o) => o.name === name,
    );
    if (!found) throw new Error(`no ${kind} named ${name}`);
    return found.id;
  };

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, { name: "Green curry", tags: [TAG], recipeCategory: [CATEGORY] });
    await app.larder.recipes.create(a, { name: "Quick salad", tags: [TAG], recipeCategory: ["Lunch"] });
    await app.larder.recipes.create(a, { name: "Slow roast", recipeCategory: [CATEGORY] });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
    tagId = await organizerId("tags", TAG);
    categoryId = await organizerId("categories", CATEGORY);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("builds a rule from a tag and a category, counting the matching recipes as it goes", async () => {
    await page.goto(RULES);
    await hydrated(page);
    await page.getByTestId("rule-new").click();
    const dialog = page.getByTestId("rule-dialog");
    const preview = dialog.getByTestId("rule-preview");
    await dialog.getByTestId("rule-day").click();
    await page.getByRole("option", { name: "Saturday" }).click();
    await dialog.getByTestId("rule-type").click();
    await page.getByRole("option", { name: "Dinner" }).click();
    await eventually(() => preview.textContent()).toBe("3 recipes match");

    await dialog.getByTestId("rule-condition-add").click();
    const first = dialog.getByTestId("rule-condition").nth(0);
    await first.getByTestId("rule-condition-values").click();
    await first.getByTestId("rule-condition-values").fill("速い");
    await page.getByRole("option", { name: TAG }).click();
    // The picker stays open for more picks; leaving it closes it.
    await page.keyboard.press("Tab");
    await eventually(() => preview.textContent()).toBe("2 recipes match");

    await dialog.getByTestId("rule-condition-add").click();
    const second = dialog.getByTestId("rule-condition").nth(1);
    await second.getByTestId("rule-condition-field").click();
    await page.getByRole("option", { name: "Categories" }).click();
    await second.getByTestId("rule-condition-values").click();
    await page.getByRole("option", { name: CATEGORY }).click();
    await page.keyboard.press("Tab");
    await eventually(() => preview.textContent()).toBe("1 recipe matches");

    // A third condition nothing can satisfy warns before saving; removing it brings the count back.
    await dialog.getByTestId("rule-condition-add").click();
    const third = dialog.getByTestId("rule-condition").nth(2);
    await third.getByTestId("rule-condition-op").click();
    await page.getByRole("option", { name: "is none of" }).click();
    await third.getByTestId("rule-condition-values").click();
    await page.getByRole("option", { name: TAG }).click();
    await page.keyboard.press("Tab");
    await eventually(() => preview.getAttribute("data-count")).toBe("0");
    await expect(preview.textContent()).resolves.toMatch(/^No recipe matches/);
    await third.getByTestId("rule-condition-remove").click();
    await eventually(() => preview.textContent()).toBe("1 recipe matches");
    await screenshot(page, "meal-plan-rule-builder-dialog");

    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(() => page.getByTestId("rule").count()).toBe(1);
    const summary = page.getByTestId("rule").getByTestId("rule-summary");
    await expect(summary.textContent()).resolves.toBe(
      `Tags is any of ${TAG}and Categories is any of ${CATEGORY}`,
    );
    expect((await rules()).map((r) => [r.day, r.entryType, r.queryFilterString])).toEqual([
      ["saturday", "dinner", `tags.id IN ["${tagId}"] AND recipe_category.id IN ["${categoryId}"]`],
    ]);
  });

  it("shows the same conditions after a reload, and the same text in the advanced view", async () => {
    await page.reload();
    await hydrated(page);
    await page.getByTestId("rule-edit").click();
    const dialog = page.getByTestId("rule-dialog");
    const conditions = dialog.getByTestId("rule-condition");
    await eventually(() => conditions.count()).toBe(2);
    const fields = await conditions.evaluateAll((els) => els.map((e) => e.getAttribute("data-field")));
    expect(fields).toEqual(["tags", "categories"]);
    const picked = (i: number) => conditions.nth(i).locator(".mantine-Pill-label").allTextContents();
    await expect(picked(0)).resolves.toEqual([TAG]);
    await expect(picked(1)).resolves.toEqual([CATEGORY]);
    await expect(conditions.nth(0).getByTestId("rule-condition-op").inputValue()).resolves.toBe("is any of");
    await eventually(() => dialog.getByTestId("rule-preview").textContent()).toBe("1 recipe matches");

    await dialog.getByTestId("rule-advanced").check({ force: true });
    await expect(dialog.getByTestId("rule-filter").inputValue()).resolves.toBe(
      `tags.id IN ["${tagId}"] AND recipe_category.id IN ["${categoryId}"]`,
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
  });

  it("the API's random pick for that day and type only picks the recipe the rule allows", async () => {
    for (let i = 0; i < 6; i++) {
      const res = await page.request.post("/api/households/mealplans/random", {
        data: { date: SATURDAY, entryType: "dinner" },
        // The session cookie authenticates this post, so it must say it comes from the site itself.
        headers: { Origin: app.url },
      });
      expect(res.status()).toBe(200);
      expect(((await res.json()) as { recipe: { slug: string } }).recipe.slug).toBe("green-curry");
    }
  });

  it("keeps a hand-written filter it cannot show exactly as written, and says why", async () => {
    const text = 'name = "Slow roast" OR (name = "Quick salad")';
    await app.larder.mealplans.createRule(app.adminActor, { day: "monday", queryFilterString: text });
    await page.reload();
    await hydrated(page);
    const monday = page.getByTestId("rule").filter({ hasText: "Monday" });
    await expect(monday.getByTestId("rule-raw").textContent()).resolves.toBe(text);
    await monday.getByTestId("rule-edit").click();
    const dialog = page.getByTestId("rule-dialog");
    await expect(dialog.getByTestId("rule-unfit").getAttribute("data-reason")).resolves.toBe("or");
    await expect(dialog.getByTestId("rule-unfit").textContent()).resolves.toContain("uses OR");
    await expect(dialog.getByTestId("rule-filter").inputValue()).resolves.toBe(text);
    await expect(dialog.getByTestId("rule-advanced").isDisabled()).resolves.toBe(true);
    await eventually(() => dialog.getByTestId("rule-preview").textContent()).toBe("2 recipes match");
    await dialog.getByTestId("rule-type").click();
    await page.getByRole("option", { name: "Lunch" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    const saved = (await rules()).find((r) => r.day === "monday");
    expect(saved).toMatchObject({ entryType: "lunch", queryFilterString: text });
  });

  it("keeps a condition on a tag that no longer exists, named as a deleted tag as in the cookbook editor, rather than dropping it", async () => {
    const gone = "0b7e9f5c-3f1a-4d2b-9c8e-7a6b5c4d3e2f";
    const text = `tags.id NOT IN ["${gone}", "${tagId}"]`;
    await app.larder.mealplans.createRule(app.adminActor, { day: "tuesday", queryFilterString: text });
    await page.reload();
    await hydrated(page);
    const tuesday = page.getByTestId("rule").filter({ hasText: "Tuesday" });
    await expect(tuesday.getByTestId("rule-summary").textContent()).resolves.toBe(
      `Tags is none of Deleted tag (0b7e9f5c), ${TAG}`,
    );
    await tuesday.getByTestId("rule-edit").click();
    const dialog = page.getByTestId("rule-dialog");
    // allTextContents does not wait for the dialog to render its pills: asked again until it has.
    await eventually(() => dialog.locator(".mantine-Pill-label").allTextContents()).toEqual([
      "Deleted tag (0b7e9f5c)",
      TAG,
    ]);
    // The picker says what a deleted one does, in the cookbook editor's words.
    const description = await dialog.getByTestId("rule-condition-values").evaluate((el) =>
      (el.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ")
        .trim(),
    );
    expect(description).toBe("A deleted one matches no recipe. It stays in the filter until you remove it.");
    await eventually(() => dialog.getByTestId("rule-preview").textContent()).toBe("1 recipe matches");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await rules()).find((r) => r.day === "tuesday")?.queryFilterString).toBe(text);
  });

  it("reads the conditions in the reader's language, right to left in Hebrew", async () => {
    await page.context().addCookies([{ name: "lang", value: "he-IL", url: app.url }]);
    await page.goto(RULES);
    await hydrated(page);
    await expect(page.locator("html").getAttribute("dir")).resolves.toBe("rtl");
    const saturday = page.getByTestId("rule").filter({ hasText: "שבת" });
    await expect(saturday.getByTestId("rule-summary").textContent()).resolves.toBe(
      `תגיות הוא אחד מתוך ${TAG}וגם קטגוריות הוא אחד מתוך ${CATEGORY}`,
    );
    await saturday.getByTestId("rule-edit").click();
    const dialog = page.getByTestId("rule-dialog");
    await expect(dialog.getByTestId("rule-condition-field").first().inputValue()).resolves.toBe("תגיות");
    await eventually(() => dialog.getByTestId("rule-preview").textContent()).toBe("מתכון אחד מתאים");
    await screenshot(page, "meal-plan-rule-builder-rtl");
    await dialog.getByRole("button", { name: "ביטול" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.context().clearCookies({ name: "lang" });
  });

  it("builds a condition by keyboard on a phone-sized screen without sideways scrolling", async () => {
    const phone = await newPage(browser, app, { errors, viewport: { width: 390, height: 844 } });
    await signIn(phone);
    await phone.goto(RULES);
    await hydrated(phone);
    await phone.getByTestId("rule-new").click();
    const dialog = phone.getByTestId("rule-dialog");
    await dialog.getByTestId("rule-condition-add").focus();
    await phone.keyboard.press("Enter");
    await eventually(() => dialog.getByTestId("rule-condition").count()).toBe(1);
    // Field, operator, remove, then the values picker.
    await dialog.getByTestId("rule-condition-field").focus();
    for (let i = 0; i < 3; i++) await phone.keyboard.press("Tab");
    await expect(
      dialog.getByTestId("rule-condition-values").evaluate((el) => el === document.activeElement),
    ).resolves.toBe(true);
    await phone.keyboard.type("速い");
    await phone.keyboard.press("ArrowDown");
    await phone.keyboard.press("Enter");
    await eventually(() => dialog.locator(".mantine-Pill-label").allTextContents()).toEqual([TAG]);
    await eventually(() => dialog.getByTestId("rule-preview").textContent()).toBe("2 recipes match");
    const widths = await phone.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      dialog: document.querySelector("[data-testid=rule-dialog]")?.scrollWidth ?? 0,
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.dialog).toBeLessThanOrEqual(390);
    await screenshot(phone, "meal-plan-rule-builder-phone");
    await phone.context().close();
    expect(errors).toEqual([]);
  });
});
