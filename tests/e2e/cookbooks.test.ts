/**
 * Cookbooks in Chromium (spec §2, §9): create one from a filter built with pickers and a live count,
 * see its recipes on its page and in the drawer, reorder with the keyboard-friendly buttons, delete.
 * Screenshots: test-results/screenshots/cookbooks-*.png.
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

describeBrowser("cookbooks", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const list = () => `/g/${app.groupSlug}/cookbooks`;
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  const rowNames = () => page.locator("[data-testid=cookbook-row] .list-row__title").allTextContents();

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, { name: "Lentil Soup", tags: ["Dinner", "Vegan"] });
    await app.larder.recipes.create(a, { name: "Beef Stew", tags: ["Dinner"] });
    await app.larder.recipes.create(a, { name: "Pancakes", tags: ["Breakfast"] });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("creates a cookbook from a tag filter, counting its recipes live", async () => {
    await page.goto(list());
    await hydrated(page);
    await page.getByTestId("cookbook-create").click();
    const dialog = page.getByTestId("cookbook-dialog");
    // Spec §9: named after the household, with the next index.
    const household = app.larder.groups.scopeOf(app.adminActor).household.doc.data.name;
    await expect(dialog.getByTestId("cookbook-name").inputValue()).resolves.toBe(`${household} Cookbook 1`);
    await eventually(() => dialog.getByTestId("cookbook-preview").textContent()).toBe("3 recipes match");
    await dialog.getByTestId("cookbook-name").fill("Dinners");
    await dialog.getByTestId("cookbook-tags").click();
    await page.getByRole("option", { name: "Dinner", exact: true }).click();
    await page.keyboard.press("Escape");
    await eventually(() => dialog.getByTestId("cookbook-preview").textContent()).toBe("2 recipes match");
    await screenshot(page, "cookbooks-editor");
    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(() => toast("success").textContent()).toBe("Cookbook created");
    await eventually(rowNames).toEqual(["Dinners"]);
    const stored = app.larder.cookbooks.list(app.adminActor, {}).items[0];
    expect(stored).toMatchObject({ name: "Dinners", position: 1 });
    expect(stored.queryFilterString).toMatch(/^tags\.id IN \["[0-9a-f-]+"\]$/);
  });

  it("shows the cookbook's recipes on its page, reached from the drawer", async () => {
    await page.getByTestId("nav-cookbook-dinners").first().click();
    await page.waitForURL((u) => u.pathname === `${list()}/dinners`);
    await hydrated(page);
    await expect(page.getByTestId("cookbook-title").textContent()).resolves.toBe("Dinners");
    await expect(page.getByTestId("recipe-count").textContent()).resolves.toBe("2 recipes");
    const names = await page.locator(".card__title").allTextContents();
    expect(names.join(" ")).toContain("Beef Stew");
    expect(names.join(" ")).toContain("Lentil Soup");
    expect(names.join(" ")).not.toContain("Pancakes");
    await screenshot(page, "cookbooks-page");
  });

  it("keeps what another member changed while the edit dialog was open", async () => {
    await page.goto(list());
    await hydrated(page);
    await page.getByRole("button", { name: "Edit Dinners" }).click();
    const dialog = page.getByTestId("cookbook-dialog");
    await dialog.getByTestId("cookbook-name").waitFor();
    // Made public from another phone while this dialog is open.
    const book = app.larder.cookbooks.list(app.adminActor, {}).items[0];
    await app.larder.cookbooks.update(app.adminActor, book.id, {
      name: book.name,
      public: true,
      queryFilterString: book.queryFilterString,
    });
    await dialog.getByTestId("cookbook-name").fill("Suppers");
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(rowNames).toEqual(["Suppers"]);
    expect(app.larder.cookbooks.list(app.adminActor, {}).items[0]).toMatchObject({
      name: "Suppers",
      public: true,
      queryFilterString: book.queryFilterString,
    });
    // Named back for the tests after this one.
    await app.larder.cookbooks.update(app.adminActor, book.id, { name: "Dinners", public: false });
  });

  it("places a second cookbook last, reorders with the buttons, and deletes after confirming", async () => {
    await page.goto(list());
    await hydrated(page);
    await page.getByTestId("cookbook-create").click();
    const dialog = page.getByTestId("cookbook-dialog");
    await dialog.getByTestId("cookbook-name").fill("Breakfasts");
    await dialog.getByRole("button", { name: "Create" }).click();
    await eventually(rowNames).toEqual(["Dinners", "Breakfasts"]);
    expect(
      app.larder.cookbooks.list(app.adminActor, {}).items.find((c) => c.name === "Breakfasts")?.position,
    ).toBe(2);

    await page.getByRole("button", { name: "Move Breakfasts up" }).focus();
    await page.keyboard.press("Enter");
    await eventually(rowNames).toEqual(["Breakfasts", "Dinners"]);
    await eventually(() =>
      app.larder.cookbooks
        .list(app.adminActor, { orderBy: "position", orderDirection: "asc" })
        .items.map((c) => c.name),
    ).toEqual(["Breakfasts", "Dinners"]);

    await page.getByRole("button", { name: "Delete Breakfasts" }).click();
    await page.getByTestId("cookbook-delete-dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(rowNames).toEqual(["Dinners"]);
    await page.getByTestId("cookbook-delete-dialog").waitFor({ state: "hidden" });
    await screenshot(page, "cookbooks-list");
    expect(errors).toEqual([]);
  });
});
