/**
 * The recipe page in Chromium: view, scaling, cook mode, rating and favourite, print preview with the
 * print preferences, a phone-sized viewport, and hostile recipe text shown inert. Screenshots of each
 * journey's end state go to test-results/screenshots/recipe-*.png.
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

const XSS_DESCRIPTION = [
  "A *hearty* stew.",
  '<img src="x" onerror="window.__xss=1">',
  "<script>window.__xss=2</script>",
  '<iframe src="https://evil.example/frame" onload="window.__xss=4"></iframe>',
  '<a href="javascript:window.__xss=5">click</a>',
].join("\n\n");

/** Playwright-style waiting for vitest assertions (expect.poll defaults to 1 s, short for a browser). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("recipe page", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const path = () => `/g/${app.groupSlug}/r/tomato-stew`;

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, { name: "Vegetable Stock" });
    await app.larder.recipes.create(app.adminActor, {
      name: "Tomato Stew",
      description: XSS_DESCRIPTION,
      recipeServings: 4,
      totalTime: "1 hour",
      prepTime: "20 min",
      tags: ["Dinner"],
      recipeCategory: ["Mains"],
      recipeIngredient: [
        { referenceId: "r1", title: "Stew", quantity: 2, unit: "cup", food: "tomato" },
        {
          referenceId: "r2",
          quantity: 1,
          food: "onion",
          note: '<b>diced</b> <img src=x onerror="window.__xss=6">',
        },
        { referenceId: "r3", quantity: 0.5, unit: "teaspoon", food: "salt" },
        { referenceId: "r4", title: "To serve", note: "fresh basil" },
        { referenceId: "r5", quantity: 1, unit: "cup", referencedRecipe: { slug: "vegetable-stock" } },
      ],
      recipeInstructions: [
        {
          title: "Prepare",
          summary: "Chop",
          text: "Chop the *onion*.",
          ingredientReferences: [{ referenceId: "r2" }],
        },
        {
          text: "Simmer the tomatoes [for an hour](javascript:window.__xss=3).",
          ingredientReferences: [{ referenceId: "r1" }, { referenceId: "r3" }],
        },
        { text: 'Serve. <iframe src="https://www.youtube.com/embed/abc123"></iframe>' },
      ],
      notes: [{ title: "Storage", text: "Keeps **3 days**." }],
      nutrition: { calories: "320", fatContent: "12", sodiumContent: "450", cholesterolContent: "15" },
      settings: { showNutrition: true },
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("shows the recipe with sections, steps, notes and nutrition with units", async () => {
    await page.goto(path());
    await hydrated(page);
    await expect(page.locator("h1.recipe__title").textContent()).resolves.toBe("Tomato Stew");
    expect(await page.locator(".recipe__ingredients .section-title").allTextContents()).toEqual([
      "Stew",
      "To serve",
    ]);
    expect(await page.locator(".recipe__ingredients .ingredients li").allTextContents()).toEqual([
      "2 cups tomatoes",
      "1 onion diced",
      "¹/₂ tsp salt",
      "fresh basil",
      "1 cup Vegetable Stock",
    ]);
    // A sub-recipe links to its page.
    await expect(page.locator(".ingredient__recipe").getAttribute("href")).resolves.toBe(
      `/g/${app.groupSlug}/r/vegetable-stock`,
    );
    // Step titles, summaries and the ingredients each step uses.
    await expect(page.locator(".step__summary").first().textContent()).resolves.toBe("Chop");
    expect(await page.locator(".step").nth(1).locator(".step__refs li").allTextContents()).toEqual([
      "2 cups tomatoes",
      "¹/₂ tsp salt",
    ]);
    const nutrition = await page.locator(".recipe__nutrition tr").allTextContents();
    expect(nutrition).toEqual(
      expect.arrayContaining(["Calories320", "Fat12 g", "Sodium450 mg", "Cholesterol15 mg"]),
    );
    // Organizer chips link to the filtered group home.
    await expect(
      page.locator(".recipe__organizers a", { hasText: "Dinner" }).getAttribute("href"),
    ).resolves.toBe(`/g/${app.groupSlug}?tags=dinner`);
    // Structured data for other apps.
    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
    ) as Record<string, unknown>;
    expect(ld["@type"]).toBe("Recipe");
    await expect(page.locator('meta[property="og:title"]').getAttribute("content")).resolves.toBe(
      "Tomato Stew",
    );
    await screenshot(page, "recipe-view");
  });

  it("hides nutrition when the recipe's 'show nutrition' setting is off", async () => {
    await app.larder.recipes.create(app.adminActor, {
      name: "Plain Broth",
      recipeIngredient: [{ note: "water" }],
      nutrition: { calories: "15" },
    });
    await page.goto(`/g/${app.groupSlug}/r/plain-broth`);
    await hydrated(page);
    await page.locator("h1.recipe__title").waitFor();
    expect(await page.locator(".recipe__nutrition").count()).toBe(0);
    // The journeys below go on from the stew's page.
    await page.goto(path());
    await hydrated(page);
  });

  it("shows hostile recipe text inert: no script runs, no javascript: links, no foreign iframes", async () => {
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    const recipe = page.locator("article.recipe");
    expect(await recipe.locator("script").count()).toBe(0);
    expect(await recipe.locator("[onerror], [onload]").count()).toBe(0);
    expect(await page.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await recipe.locator('iframe[src*="evil.example"]').count()).toBe(0);
    // The whitelisted embed stays; ingredient text keeps <b> only.
    expect(await recipe.locator('iframe[src^="https://www.youtube.com/embed/"]').count()).toBe(1);
    await expect(recipe.locator(".recipe__ingredients .ingredient__note b").textContent()).resolves.toBe(
      "diced",
    );
    expect(await recipe.locator(".ingredients img").count()).toBe(0);
    // The link text survives as plain text.
    await expect(recipe.locator(".step").nth(1).textContent()).resolves.toContain("for an hour");
    await screenshot(page, "recipe-xss-inert");
  });

  it("scales by servings with fractions of at most tenths", async () => {
    const servings = page.getByTestId("servings");
    await expect(servings.textContent()).resolves.toBe("4 servings");
    await page.getByRole("button", { name: "More servings" }).click();
    await eventually(() => servings.textContent()).toBe("5 servings");
    const lines = page.locator(".recipe__ingredients .ingredients li");
    expect(await lines.allTextContents()).toEqual([
      "2 ¹/₂ cups tomatoes",
      "1 ¹/₄ onions diced",
      "⁵/₈ tsp salt",
      "fresh basil",
      "1 ¹/₄ cups Vegetable Stock",
    ]);
    await page.getByRole("button", { name: "Fewer servings" }).click();
    await page.getByRole("button", { name: "Fewer servings" }).click();
    await eventually(() => servings.textContent()).toBe("3 servings");
    expect(await lines.allTextContents()).toEqual([
      "1 ¹/₂ cups tomatoes",
      "³/₄ onion diced",
      "³/₈ tsp salt",
      "fresh basil",
      "³/₄ cup Vegetable Stock",
    ]);
    await screenshot(page, "recipe-scaled");
  });

  it("cooks one step at a time, then all steps, with each step's ingredients", async () => {
    await page.getByTestId("mode-switch").getByText("Cook").click();
    const cook = page.getByTestId("cook-mode");
    await cook.waitFor();
    await expect(cook.locator(".cook__step-number").textContent()).resolves.toBe("Step 1 of 3");
    expect(await cook.locator(".cook__step .step__refs li").allTextContents()).toEqual(["³/₄ onion diced"]);
    // The current step's ingredients are highlighted in the list.
    expect(await cook.locator(".cook__ingredients li.is-highlighted").allTextContents()).toEqual([
      "³/₄ onion diced",
    ]);
    await cook.getByRole("button", { name: "Next step" }).click();
    await expect(cook.locator(".cook__step-number").textContent()).resolves.toBe("Step 2 of 3");
    await page.keyboard.press("ArrowRight");
    await expect(cook.locator(".cook__step-number").textContent()).resolves.toBe("Step 3 of 3");
    await cook.getByText("All steps").click();
    expect(await cook.locator(".cook__step").count()).toBe(3);
    const fontSize = await cook
      .locator(".cook__text")
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(20);
    await screenshot(page, "recipe-cook");
    await cook.getByRole("button", { name: "Back to the recipe" }).click();
    await page.getByTestId("recipe-view").waitFor();
  });

  it("rates the recipe, shows the average in half-steps, and toggles the favourite", async () => {
    await page.goto(path());
    await hydrated(page);
    await expect(page.getByTestId("rating-average-text").textContent()).resolves.toBe("Not rated yet");
    const four = await page.getByTestId("rating-own").locator('input[value="4"]').getAttribute("id");
    await page.locator(`label[for="${four}"]`).click();
    await eventually(() => page.getByTestId("rating-average-text").textContent()).toBe("4 of 5");
    const recipe = app.larder.recipes.get(app.adminActor, "tomato-stew");
    expect(
      app.larder.ratings.forSelf(app.adminActor, false).find((r) => r.recipeId === recipe.id)?.rating,
    ).toBe(4);

    const fav = page.getByTestId("favorite");
    await expect(fav.getAttribute("aria-pressed")).resolves.toBe("false");
    await fav.click();
    await eventually(() => fav.getAttribute("aria-pressed")).toBe("true");
    await eventually(() => app.larder.ratings.forSelf(app.adminActor, true).map((r) => r.recipeId)).toEqual([
      recipe.id,
    ]);
    // Reloaded from the server, not just the click.
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId("favorite").getAttribute("aria-pressed")).resolves.toBe("true");
    await expect(page.getByTestId("rating-average-text").textContent()).resolves.toBe("4 of 5");
    // A second member's 3 makes the average 3.5: half a star.
    const other = await app.larder.users.create(
      {
        username: "sam",
        email: "sam@example.com",
        fullName: "Sam",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: app.admin.groupId, householdId: app.admin.householdId },
    );
    await app.larder.ratings.set({ kind: "user", user: other }, other.id, "tomato-stew", { rating: 3 });
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId("rating-average-text").textContent()).resolves.toBe("3.5 of 5");
    await screenshot(page, "recipe-rated");
  });

  it("prints: chrome hidden, layout from the print preferences", async () => {
    await page.goto(path());
    await hydrated(page);
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: "Print preferences" }).click();
    const dialog = page.getByTestId("print-prefs-dialog");
    await dialog.getByText("Hidden").click();
    await dialog.getByRole("switch", { name: "Nutrition" }).check({ force: true });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("[data-toast=success]").last().textContent()).resolves.toBe(
      "Print preferences saved",
    );
    const stored = await page.evaluate(() => localStorage.getItem("larder.recipe-print-preferences"));
    expect(JSON.parse(stored ?? "{}")).toEqual({
      imagePosition: "hidden",
      showDescription: true,
      showNotes: true,
      showNutrition: true,
    });
    await page.emulateMedia({ media: "print" });
    try {
      for (const sel of [".recipe__toolbar", ".recipe__rating", ".recipe__comments"]) {
        for (const el of await page.locator(sel).all()) expect(await el.isVisible(), sel).toBe(false);
      }
      for (const el of await page.locator(".no-print").all()) expect(await el.isVisible()).toBe(false);
      expect(await page.locator(".recipe__image").isVisible()).toBe(false);
      expect(await page.locator(".recipe__ingredients").isVisible()).toBe(true);
      expect(await page.locator(".recipe__instructions").isVisible()).toBe(true);
      expect(await page.locator(".recipe__notes").isVisible()).toBe(true);
      expect(await page.locator(".recipe__nutrition").isVisible()).toBe(true);
      await screenshot(page, "recipe-print-preview");
    } finally {
      await page.emulateMedia({ media: "screen" });
    }
  });

  it("fits a phone-sized viewport", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(path());
      await hydrated(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.getByTestId("servings").isVisible()).toBe(true);
      await screenshot(page, "recipe-phone");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("gives a finger a rating star of about 44 px to tap on a touch screen", async () => {
    const phone = await newPage(browser, app, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      errors,
    });
    try {
      await signIn(phone);
      await phone.goto(path());
      await hydrated(phone);
      const star = await phone.locator(".star-input__star").first().boundingBox();
      expect(star?.height).toBeGreaterThanOrEqual(40);
    } finally {
      await phone.context().close();
    }
  });

  it("shows an imported line as its page wrote it, and in the group's words once scaled", async () => {
    // The en-US seed knows "unsalted butter" as butter and "canola oil" as vegetable oil: the line keeps
    // the author's words at the recipe's own amounts.
    const { slug } = await app.larder.imports.importOne(app.adminActor, {
      type: "json",
      json: {
        "@type": "Recipe",
        name: "Butter Dip",
        recipeYield: "2",
        recipeIngredient: ["4 tablespoons unsalted butter, melted", "2 Tbsp canola oil"],
        recipeInstructions: ["Mix."],
      },
    });
    await page.goto(`/g/${app.groupSlug}/r/${slug}`);
    await hydrated(page);
    const lines = page.locator(".recipe__ingredients .ingredients li");
    expect(await lines.allTextContents()).toEqual([
      "4 tablespoons unsalted butter, melted",
      "2 Tbsp canola oil",
    ]);
    await expect(lines.first().locator(".ingredient__qty").textContent()).resolves.toBe("4");
    await page.getByRole("button", { name: "More servings" }).click();
    await eventually(() => lines.first().textContent()).toBe("6 tbsp butter melted");
  });

  it("had no uncaught page errors or hydration errors", () => {
    expect(errors).toEqual([]);
  });
});
