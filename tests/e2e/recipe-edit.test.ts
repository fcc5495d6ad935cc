/**
 * Edit mode in Chromium: the FORM editor (fields, a new ingredient, a section, drag to reorder with the
 * keyboard), the JSON editor and back, saving; the leave-page warning; a file changed on disk (core's 409)
 * shown with a reload button; image upload. Screenshots: test-results/screenshots/recipe-edit-*.png.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
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

/** Playwright-style waiting for vitest assertions (expect.poll defaults to 1 s, short for a browser). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("recipe edit mode", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const view = () => `/g/${app.groupSlug}/r/pancakes`;
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  /** Open edit mode by its address: the editor's code loads after the page hydrates. */
  const openEditor = async () => {
    await page.goto(`${view()}?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
  };

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Pancakes",
      description: "Plain pancakes.",
      recipeServings: 2,
      recipeIngredient: [
        { referenceId: "a", quantity: 1, unit: "cup", food: "flour" },
        { referenceId: "b", quantity: 2, food: "egg" },
        { referenceId: "c", note: "a pinch of salt" },
      ],
      recipeInstructions: [
        { text: "Mix.", ingredientReferences: [{ referenceId: "a" }, { referenceId: "b" }] },
        { text: "Fry." },
      ],
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("edits in the form, moves an ingredient, round-trips through JSON and saves", async () => {
    await page.goto(view());
    await hydrated(page);
    await page.getByTestId("mode-switch").getByText("Edit").click();
    await page.waitForURL(/\?edit=true$/);
    const form = page.getByTestId("form-editor");
    await form.waitFor();
    await page.getByTestId("edit-description").fill("Fluffy **pancakes**.");

    // A new ingredient, typed.
    await page.getByTestId("add-ingredient").click();
    const rows = form.locator(".ing-row");
    await eventually(() => rows.count()).toBe(4);
    const last = rows.nth(3);
    await last.getByLabel("Amount").fill("1/2");
    await last.getByLabel("Unit").fill("cup");
    await last.getByLabel("Food").fill("milk");
    await last.getByLabel("Note").fill("warm");
    await page.keyboard.press("Escape"); // close the food suggestions

    // Drag the salt (third row) to the top with the keyboard: space lifts, arrows move, space drops.
    const handle = rows.nth(2).getByRole("button", { name: /^Move ingredient 3 / });
    await handle.focus();
    await page.keyboard.press("Space");
    await eventually(() => handle.getAttribute("aria-pressed")).toBe("true");
    // dnd-kit measures and moves on animation frames: each key waits for the last one's announcement.
    const spoken = () => page.locator("[id^=DndLiveRegion]").first().textContent();
    await eventually(spoken).toMatch(/^Picked up /);
    for (const [key, said] of [
      ["ArrowUp", / is over position 2 of 4\.$/],
      ["ArrowUp", / is over position 1 of 4\.$/],
      ["Space", / was dropped at position 1 of 4\.$/],
    ] as const) {
      // A key that lands before dnd-kit has measured the rows is ignored (nothing is announced): press
      // it again then, and only then, so a slow answer is never taken for a lost key.
      const before = await spoken();
      for (let tries = 0; tries < 5 && !said.test((await spoken()) ?? ""); tries++) {
        if (tries > 0 && (await spoken()) !== before) break;
        await page.keyboard.press(key);
        await page
          .waitForFunction(
            (prev) => document.querySelector("[id^=DndLiveRegion]")?.textContent !== prev,
            before,
            { timeout: 2_000 },
          )
          .catch(() => undefined);
      }
      await eventually(spoken).toMatch(said);
    }
    await eventually(() => rows.first().getByLabel("Note").inputValue()).toBe("a pinch of salt");
    // The salt starts a section now.
    await rows
      .first()
      .getByRole("button", { name: /^Start a section at ingredient 1 / })
      .click();
    await rows.first().getByTestId("ingredient-section").fill("Batter");

    // JSON editor: the form's changes are there; an edit there comes back to the form.
    await page.getByTestId("editor-mode").getByText("JSON").click();
    const json = page.getByTestId("json-editor");
    const text = await json.inputValue();
    expect(text).toContain('"description": "Fluffy **pancakes**."');
    expect(text).toContain('"name": "milk"');
    await json.fill(text.replace('"recipeServings": 2', '"recipeServings": 6'));
    // Broken JSON keeps the JSON editor open with the reason.
    await json.fill(text + "}");
    await page.getByTestId("editor-mode").getByText("Form").click();
    await page.getByText(/^The JSON is not valid: /).waitFor();
    await json.fill(text.replace('"recipeServings": 2', '"recipeServings": 6'));
    await page.getByTestId("editor-mode").getByText("Form").click();
    await eventually(() => form.getByLabel("Servings").inputValue()).toBe("6");
    await screenshot(page, "recipe-edit-form");

    await page.getByTestId("save-recipe").click();
    await eventually(() => toast("success").textContent()).toBe("Recipe saved");
    await page.waitForURL((u) => u.pathname === view() && !u.search.includes("edit"));
    await page.getByTestId("recipe-view").waitFor();
    await expect(page.locator(".recipe__description strong").textContent()).resolves.toBe("pancakes");
    expect(await page.locator(".recipe__ingredients .section-title").allTextContents()).toEqual(["Batter"]);
    expect(await page.locator(".recipe__ingredients .ingredients li").allTextContents()).toEqual([
      "a pinch of salt",
      // The group's vocabulary resolves "flour" and "milk" through its aliases; the page still shows the
      // words as written, at the recipe's own amounts (decision 0227).
      "1 cup flour",
      "2 eggs",
      "¹/₂ cup milk, warm",
    ]);
    await expect(page.getByTestId("servings").textContent()).resolves.toBe("6 servings");

    const saved = app.larder.recipes.get(app.adminActor, "pancakes");
    expect(saved.recipeServings).toBe(6);
    // The first step still uses the flour and the eggs, wherever they moved.
    const byRef = new Map(saved.recipeIngredient.map((i) => [i.referenceId, i.food?.name ?? i.note]));
    expect(saved.recipeInstructions[0].ingredientReferences.map((r) => byRef.get(r.referenceId))).toEqual([
      "all-purpose flour",
      "egg",
    ]);
    await screenshot(page, "recipe-edit-saved");
  });

  it("warns before leaving with unsaved changes, and leaves edit mode back in the form editor", async () => {
    await openEditor();
    await page.getByTestId("editor-mode").getByText("JSON").click();
    await page.getByTestId("editor-mode").getByText("Form").click();
    await page.getByTestId("edit-name").fill("Pancakes!");
    await page.getByTestId("mode-switch").getByText("View").click();
    const dialog = page.getByTestId("leave-dialog");
    await dialog.getByText("You have unsaved changes. Leave this page and lose them?").waitFor();
    await screenshot(page, "recipe-edit-leave-warning");
    await dialog.getByRole("button", { name: "Stay" }).click();
    await eventually(() => page.getByTestId("edit-name").inputValue()).toBe("Pancakes!");
    expect(page.url()).toContain("edit=true");
    // Switch to JSON, then leave: the next visit opens the form editor again.
    await page.getByTestId("editor-mode").getByText("JSON").click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.getByTestId("leave-dialog").getByRole("button", { name: "Leave" }).click();
    await page.waitForURL((u) => !u.search.includes("edit"));
    expect(app.larder.recipes.get(app.adminActor, "pancakes").name).toBe("Pancakes");
    // On a loaded machine a click right after the navigation can land before the view is live: click
    // again until edit mode is on (Edit while editing changes nothing).
    await eventually(async () => {
      if (!page.url().includes("edit=true")) await page.getByTestId("mode-switch").getByText("Edit").click();
      return page.url().includes("edit=true");
    }).toBe(true);
    await page.getByTestId("form-editor").waitFor();
  });

  it("shows a file changed on disk as an error with a reload button", async () => {
    await openEditor();
    // Someone edits the Markdown file by hand while the form is open.
    const file = join(app.dataDir, "groups", app.groupSlug, "recipes", "pancakes.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("Fluffy **pancakes**.", "Edited on disk."));
    await app.larder.recipes.store.reload(app.groupSlug, "pancakes");
    await page.getByTestId("edit-description").fill("My change");
    await page.getByTestId("save-recipe").click();
    const error = toast("error");
    await eventually(() => error.textContent()).toContain(
      "Someone changed this recipe after you opened it (in the app or in its file), where you made changes too. Reload to see the new version, or save yours over it.",
    );
    await screenshot(page, "recipe-edit-conflict");
    await error.getByRole("button", { name: "Reload" }).click();
    await page.waitForLoadState("load");
    await hydrated(page);
    await eventually(() => page.getByTestId("edit-description").inputValue()).toBe("Edited on disk.");
    expect(app.larder.recipes.get(app.adminActor, "pancakes").description).toBe("Edited on disk.");
  });

  it("saves the form's version of a field changed elsewhere too when asked to, keeping the rest", async () => {
    await openEditor();
    await app.larder.recipes.update(
      app.adminActor,
      "pancakes",
      { description: "Changed in another tab.", tags: [{ name: "Sunday" }] },
      "patch",
    );
    await page.getByTestId("edit-description").fill("Mine wins.");
    await page.getByTestId("save-recipe").click();
    const error = toast("error");
    await error.getByRole("button", { name: "Save mine anyway" }).click();
    await page.waitForURL((u) => !u.search.includes("edit"));
    const saved = app.larder.recipes.get(app.adminActor, "pancakes");
    expect(saved.description).toBe("Mine wins.");
    expect(saved.tags.map((t) => t.name)).toContain("Sunday");
  });

  it("keeps what someone else changed while the form was open, in a field the form left alone", async () => {
    await openEditor();
    // Another client adds a tag and an ingredient, and the file gets new servings by hand, while the
    // form is open.
    const opened = app.larder.recipes.get(app.adminActor, "pancakes");
    const other = await app.larder.recipes.update(
      app.adminActor,
      "pancakes",
      {
        tags: [{ name: "Brunch" }],
        recipeIngredient: [...opened.recipeIngredient, { quantity: 1, food: "butter", note: "for the pan" }],
      },
      "patch",
    );
    expect(other.tags.map((t) => t.name)).toContain("Brunch");
    const file = join(app.dataDir, "groups", app.groupSlug, "recipes", "pancakes.md");
    const text = await readFile(file, "utf8");
    expect(text).toMatch(/^recipeServings: /m);
    await writeFile(file, text.replace(/^recipeServings: .*$/m, "recipeServings: 10"));
    await app.larder.recipes.store.reload(app.groupSlug, "pancakes");
    // An image uploaded from the form runs the page's loader again, which then carries the tag: the
    // form's save must still be made on the copy it opened, not on what the loader brought.
    const png = await sharp({
      create: { width: 32, height: 24, channels: 3, background: { r: 40, g: 80, b: 200 } },
    })
      .png()
      .toBuffer();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "brunch.png", mimeType: "image/png", buffer: png });
    await eventually(() => toast("success").textContent()).toBe("Image updated");
    await page.getByTestId("edit-description").fill("Saved from the form.");
    await page.getByTestId("save-recipe").click();
    await page.waitForURL((u) => !u.search.includes("edit"));
    const saved = app.larder.recipes.get(app.adminActor, "pancakes");
    expect(saved.description).toBe("Saved from the form.");
    expect(saved.tags.map((t) => t.name)).toContain("Brunch");
    expect(saved.recipeIngredient).toEqual(other.recipeIngredient);
    expect(saved.recipeServings).toBe(10);
  });

  it("saves a recipe someone else renamed while the form was open, and lands on its new address", async () => {
    await app.larder.recipes.create(app.adminActor, { name: "Crumpets" });
    await page.goto(`/g/${app.groupSlug}/r/crumpets?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
    await app.larder.recipes.update(app.adminActor, "crumpets", { name: "Griddle Crumpets" }, "patch");
    await page.getByTestId("edit-description").fill("Saved after the rename.");
    await page.getByTestId("save-recipe").click();
    await page.waitForURL((u) => u.pathname === `/g/${app.groupSlug}/r/griddle-crumpets`);
    const saved = app.larder.recipes.get(app.adminActor, "griddle-crumpets");
    expect(saved).toMatchObject({ name: "Griddle Crumpets", description: "Saved after the rename." });
  });

  it("uploads an image", async () => {
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } },
    })
      .png()
      .toBuffer();
    await openEditor();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "pancakes.png", mimeType: "image/png", buffer: png });
    await eventually(() => toast("success").textContent()).toBe("Image updated");
    await eventually(() => app.larder.recipes.get(app.adminActor, "pancakes").image).not.toBeNull();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.locator("img.recipe__image").waitFor();
    await screenshot(page, "recipe-edit-image");
  });

  it("renaming a recipe and saving lands on its new address, not on a 404", async () => {
    await app.larder.recipes.create(app.adminActor, { name: "Waffles" });
    await page.goto(`/g/${app.groupSlug}/r/waffles?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
    await page.getByTestId("edit-name").fill("Belgian Waffles");
    await page.getByTestId("save-recipe").click();
    await page.waitForURL((u) => u.pathname === `/g/${app.groupSlug}/r/belgian-waffles`);
    await page.getByRole("heading", { name: "Belgian Waffles" }).first().waitFor();
    expect(await page.getByText("404").count()).toBe(0);
  });

  it("says at the Name field, before sending, that a recipe needs a name", async () => {
    await app.larder.recipes.create(app.adminActor, { name: "Crepes" });
    await page.goto(`/g/${app.groupSlug}/r/crepes?edit=true`);
    await hydrated(page);
    await interactive(page, '[data-testid="recipe-editor"]');
    const name = page.getByTestId("edit-name");
    await name.fill("");
    await page.getByTestId("save-recipe").click();
    await eventually(() => name.getAttribute("aria-invalid")).toBe("true");
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "edit-name",
    );
    await expect(page.getByText("This Field is Required").count()).resolves.toBeGreaterThan(0);
    expect((await app.larder.recipes.get(app.adminActor, "crepes")).name).toBe("Crepes");
    await name.fill("Thin Crepes");
    await eventually(() => name.getAttribute("aria-invalid")).not.toBe("true");
  });

  it("had no uncaught page errors or hydration errors", () => {
    expect(errors).toEqual([]);
  });
});
