/**
 * Organizer pages in Chromium (spec §2): tags with their recipe counts; create, rename (the recipes
 * follow), merge into another (recipes name the target once), delete after confirming, and a tag's
 * name opening the group home filtered by it. Screenshots: test-results/screenshots/organizers-*.png.
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

describeBrowser("organizer pages", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const tags = () => `/g/${app.groupSlug}/recipes/tags`;
  const row = (name: string) => page.locator(`[data-testid=organizer-row][data-name="${name}"]`);
  const names = () =>
    page
      .locator("[data-testid=organizer-row]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
  const recipeTags = (slug: string) => app.larder.recipes.get(app.adminActor, slug).tags.map((t) => t.name);

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, { name: "Soup", tags: ["Quick", "Dinner"] });
    await app.larder.recipes.create(a, { name: "Stew", tags: ["Weeknight", "Dinner"] });
    await app.larder.recipes.create(a, { name: "Salad", tags: ["Quick", "Weeknight"] });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it("lists the tags with how many recipes use each, from the drawer", async () => {
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.getByTestId("nav-tags").click();
    await page.waitForURL((u) => u.pathname === tags());
    await hydrated(page);
    await expect(names()).resolves.toEqual(["Dinner", "Quick", "Weeknight"]);
    await expect(row("Dinner").getByTestId("organizer-recipes").textContent()).resolves.toBe("2 recipes");
  });

  it("creates a tag", async () => {
    await page.getByTestId("organizer-new").fill("Party");
    await page.getByTestId("organizer-create").click();
    await eventually(names).toEqual(["Dinner", "Party", "Quick", "Weeknight"]);
    await expect(row("Party").getByTestId("organizer-recipes").textContent()).resolves.toBe("0 recipes");
    await eventually(() => page.getByTestId("organizer-new").inputValue()).toBe("");
  });

  it("refuses a tag that already exists, saying why", async () => {
    await page.getByTestId("organizer-new").fill("dinner");
    await page.getByTestId("organizer-create").click();
    await page.getByText("An item with the name 'dinner' already exists").waitFor();
    await expect(names()).resolves.toEqual(["Dinner", "Party", "Quick", "Weeknight"]);
    await page.getByTestId("organizer-new").fill("");
  });

  it("renames a tag, and its recipes follow", async () => {
    await row("Quick").getByTestId("organizer-rename").click();
    const dialog = page.getByTestId("organizer-rename-dialog");
    await dialog.getByTestId("organizer-rename-name").fill("Fast");
    await dialog.getByTestId("organizer-rename-name").press("Enter");
    await eventually(names).toEqual(["Dinner", "Fast", "Party", "Weeknight"]);
    expect(recipeTags("soup")).toEqual(["Fast", "Dinner"]);
    expect(recipeTags("salad")).toEqual(["Fast", "Weeknight"]);
  });

  it("merges a tag into another: its recipes name the target once", async () => {
    await row("Weeknight").getByTestId("organizer-merge").click();
    const dialog = page.getByTestId("organizer-merge-dialog");
    await dialog.getByTestId("organizer-merge-into").click();
    await page.getByRole("option", { name: "Dinner", exact: true }).click();
    await dialog.getByRole("button", { name: "Merge" }).click();
    await eventually(names).toEqual(["Dinner", "Fast", "Party"]);
    await expect(row("Dinner").getByTestId("organizer-recipes").textContent()).resolves.toBe("3 recipes");
    expect(recipeTags("stew")).toEqual(["Dinner"]);
    expect(recipeTags("salad")).toEqual(["Fast", "Dinner"]);
  });

  it("deletes a tag after confirming", async () => {
    await row("Party").getByTestId("organizer-delete").click();
    await page.getByTestId("organizer-delete-dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(names).toEqual(["Dinner", "Fast"]);
    await page.getByTestId("organizer-delete-dialog").waitFor({ state: "hidden" });
    await screenshot(page, "organizers-tags");
  });

  it("opens the group home filtered by a tag", async () => {
    await row("Fast").getByTestId("organizer-open").click();
    await page.waitForURL(
      (u) => u.pathname === `/g/${app.groupSlug}` && u.searchParams.get("tags") === "fast",
    );
    await hydrated(page);
    await expect(page.getByTestId("recipe-count").textContent()).resolves.toContain("2 recipes");
    await screenshot(page, "organizers-filtered-home");
    expect(errors).toEqual([]);
  });
});
