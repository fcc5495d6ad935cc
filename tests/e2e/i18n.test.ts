/**
 * Languages in Chromium (issue 22): the dialog lists Mealie's 42 locales with their percentages; switching
 * to Arabic turns the page right to left, and the recipe page and the home cards keep their numbers,
 * quantities and Latin names in reading order (Arabic digits, isolated values); then back to English.
 * Screenshots: test-results/screenshots/i18n-*.png.
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

describeBrowser("languages (Chromium)", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, { name: "Flatbread", description: "Soft and quick." });
    await app.larder.recipes.create(a, {
      name: "Tomato Stew",
      description: "A thick stew.",
      recipeServings: 4,
      totalTime: "1 hour 30 minutes",
      prepTime: "20 min",
      recipeIngredient: [
        { referenceId: "r1", quantity: 2, unit: "cup", food: "tomato" },
        { referenceId: "r2", quantity: 1.5, food: "onion" },
        { referenceId: "r3", quantity: 0.25, unit: { name: "kilogram", fraction: false }, food: "lamb" },
      ],
      recipeInstructions: [{ text: "Simmer for 90 minutes." }, { text: "Serve hot." }],
      settings: { public: false },
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("switches to Arabic, reads the recipe page right to left with its numbers in place, and back", async () => {
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.click("[data-testid=language-button]");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await expect(dialog.locator("button[name=lang]").count()).resolves.toBeGreaterThanOrEqual(42);
    await dialog.locator("button[value=ar-SA]").click();
    await page.waitForFunction(() => document.documentElement.lang === "ar-SA");
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe("rtl");

    // Home: the count in Arabic plural form (two recipes: the dual, no digit), Latin names isolated.
    await hydrated(page);
    await expect(page.getByText("وصفتان").count()).resolves.toBeGreaterThan(0);
    const title = page.locator("[data-testid=recipe-card] .card__title bdi").first();
    await expect(title.textContent()).resolves.toMatch(/Flatbread|Tomato Stew/);
    await screenshot(page, "i18n-01-home-ar");

    // The language dialog shows its percentages with Arabic digits.
    await page.click("[data-testid=language-button]");
    await page.getByRole("dialog").getByText("١٠٠٪").first().waitFor();
    await page.keyboard.press("Escape");

    await page.goto(`/g/${app.groupSlug}/r/tomato-stew`);
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "المكونات" }).count()).resolves.toBe(1);
    // Quantities in Arabic digits, each isolated so it stays before its unit in an English line.
    const qty = page.locator(".ingredient__qty bdi");
    await expect(qty.allTextContents()).resolves.toEqual(["٢", "١ ¹/₂", "٠٫٢٥"]);
    const line = page.locator(".ingredient__text").first();
    await expect(line.evaluate((el) => getComputedStyle(el).direction)).resolves.toBe("ltr");
    const [q, unit] = await Promise.all([
      page.locator(".ingredient__qty").first().boundingBox(),
      page.locator(".ingredient__unit").first().boundingBox(),
    ]);
    expect(q && unit && q.x < unit.x).toBe(true); // "٢ cup tomato" reads left to right
    // The servings sentence is Arabic: the number isolated, at the start of the right-to-left sentence.
    await expect(page.getByTestId("servings").textContent()).resolves.toBe("\u2068٤\u2069 حصص");
    // Recipe times as durations in Arabic units.
    const facts = await page.locator(".facts dd").allTextContents();
    expect(facts.some((f) => f.includes("٣٠"))).toBe(true);
    // The step numbers are Arabic digits too.
    await expect(page.locator(".step__number").allTextContents()).resolves.toEqual(["١", "٢"]);
    const h1 = await page.locator(".recipe__title").boundingBox();
    const viewport = page.viewportSize();
    expect(h1 && viewport && h1.x + h1.width > viewport.width / 2).toBe(true); // title starts on the right
    await screenshot(page, "i18n-02-recipe-ar");

    await page.click("[data-testid=language-button]");
    await page.getByRole("dialog").locator("button[value=en-US]").click();
    await page.waitForFunction(() => document.documentElement.lang === "en-US");
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe("ltr");
    await hydrated(page);
    await expect
      .poll(() => page.locator(".ingredient__qty bdi").allTextContents(), { timeout: 10_000 })
      .toEqual(["2", "1 ¹/₂", "0.25"]);
    await expect(page.getByTestId("servings").textContent()).resolves.toBe("4 servings");
    await screenshot(page, "i18n-03-recipe-en");
  });

  it("reports no page error or hydration mismatch", () => {
    expect(errors).toEqual([]);
  });
});
