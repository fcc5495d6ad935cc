/**
 * The recipe editor's rows to a screen reader: each row's buttons (move, start or remove a section,
 * remove) are named after their row, by position and text, in the page's language, where every row's
 * buttons were once all called "Remove" or "Drag to reorder". Dragging a row tells the screen reader
 * how, and what moved where, by the rows' names in the page's language, not dnd-kit's English and ids.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  describeBrowser,
  hydrated,
  interactive,
  launchBrowser,
  newPage,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";

describeBrowser("recipe editor rows", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  /** The names of the buttons in the editor's rows of one section ("edit-ingredients" or "edit-steps"). */
  const rowButtons = (section: string) =>
    page
      .locator(`section[aria-labelledby=${section}] .edit-row button`)
      .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));

  const openEditor = async (lang = "en-US") => {
    await page.context().addCookies([{ name: "lang", value: lang, url: app.url }]);
    await page.goto(`/g/${app.groupSlug}/r/garlic-greens?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
  };

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Garlic Greens",
      recipeIngredient: [
        { referenceId: "a", quantity: 2, unit: "tablespoon", food: "olive oil" },
        { referenceId: "b", quantity: 2, unit: "clove", food: "garlic" },
      ],
      recipeInstructions: [
        { text: "Warm the oil and garlic in a wide pan over a low heat." },
        { summary: "Greens", text: "Add the greens." },
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("names each row's buttons by the row's position and text", async () => {
    await openEditor();
    const ingredients = await rowButtons("edit-ingredients");
    expect(ingredients).toEqual([
      "Move ingredient 1 (2 tbsp olive oil)",
      "Start a section at ingredient 1 (2 tbsp olive oil)",
      "Remove ingredient 1 (2 tbsp olive oil)",
      "Move ingredient 2 (2 cloves garlic)",
      "Start a section at ingredient 2 (2 cloves garlic)",
      "Remove ingredient 2 (2 cloves garlic)",
    ]);
    expect(await rowButtons("edit-steps")).toEqual([
      "Move step 1 (Warm the oil and garlic in a wide pan…)",
      "Start a section at step 1 (Warm the oil and garlic in a wide pan…)",
      "Remove step 1 (Warm the oil and garlic in a wide pan…)",
      "Move step 2 (Greens)",
      "Start a section at step 2 (Greens)",
      "Remove step 2 (Greens)",
    ]);
  });

  it("names them in the page's language", async () => {
    await openEditor("de-DE");
    const names = await rowButtons("edit-ingredients");
    expect(names).toContain("Entfernen: Zutat 2 (2 cloves garlic)");
    expect(new Set(names).size).toBe(names.length);
  });

  /** What dnd-kit gives the screen reader: the handle's instructions and the live region's text. */
  const spoken = (handle: ReturnType<Page["getByRole"]>) => ({
    instructions: () =>
      handle.evaluate((h) => document.getElementById(h.getAttribute("aria-describedby") ?? "")?.textContent),
    live: () => page.locator("[id^=DndLiveRegion]").first().textContent(),
  });
  const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

  it("tells a screen reader how to move a row and what moved where, by the rows' names", async () => {
    await openEditor();
    const handle = page.getByRole("button", { name: /^Move ingredient 2 / });
    const say = spoken(handle);
    await expect(say.instructions()).resolves.toMatch(/^To pick up an item, press Space or Enter\./);
    await handle.focus();
    await page.keyboard.press("Space");
    await eventually(say.live).toBe("Picked up 2 cloves garlic.");
    await page.keyboard.press("ArrowUp");
    await eventually(say.live).toBe("2 cloves garlic is over position 1 of 2.");
    await page.keyboard.press("Escape");
    await eventually(say.live).toBe("Moving 2 cloves garlic was cancelled; it stays where it was.");
  });

  it("says it in the page's language", async () => {
    await openEditor("de-DE");
    const handle = page.getByRole("button", { name: /^Verschieben: Zutat 1 / });
    const say = spoken(handle);
    await expect(say.instructions()).resolves.toMatch(/^Zum Aufnehmen eines Eintrags/);
    await handle.focus();
    await page.keyboard.press("Space");
    await eventually(say.live).toBe("2 tbsp olive oil aufgenommen.");
    await page.keyboard.press("Escape");
    expect(errors).toEqual([]);
  });
});
