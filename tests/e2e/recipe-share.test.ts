/**
 * Sharing in Chromium: the share dialog (list loads on open, create with a picked expiry, copy with the
 * clipboard messages of spec §8, delete), then the shared link opened signed out; an expired link is
 * "page not found". Screenshots: test-results/screenshots/recipe-share-*.png.
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

/** yyyy-MM-dd of the local day `days` from today (what a date input holds). */
function day(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Playwright-style waiting for vitest assertions (expect.poll defaults to 1 s, short for a browser). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("recipe sharing", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let recipeId = "";
  const errors: string[] = [];
  const path = () => `/g/${app.groupSlug}/r/lemon-tart`;
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Lemon Tart",
      description: "Sharp and sweet.",
      recipeServings: 8,
      recipeIngredient: [{ quantity: 3, food: "lemon" }],
      recipeInstructions: [{ text: "Bake." }],
    });
    recipeId = app.larder.recipes.get(app.adminActor, "lemon-tart").id;
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  const openShare = async () => {
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: "Share" }).click();
    return page.getByTestId("share-dialog");
  };

  it("creates a link with the picked expiry, copies it, and lists it when the dialog opens again", async () => {
    await page.goto(path());
    await hydrated(page);
    const defaultDay = day(30);
    let dialog = await openShare();
    await dialog.getByText("No share links yet.").waitFor();
    // Spec §9: 30 days by default (read on either side of the opening, in case midnight passed).
    expect([defaultDay, day(30)]).toContain(await dialog.getByTestId("share-expiry").inputValue());
    const picked = day(7);
    await dialog.getByTestId("share-expiry").fill(picked);
    await dialog.getByRole("button", { name: "Create link" }).click();
    await eventually(() => toast("success").textContent()).toBe("Share link created");
    await eventually(() => dialog.locator("[data-token]").count()).toBe(1);
    const shares = await app.larder.shares.list(app.adminActor, recipeId);
    expect(shares).toHaveLength(1);
    const expires = new Date(shares[0].expiresAt);
    expect(
      `${expires.getFullYear()}-${String(expires.getMonth() + 1).padStart(2, "0")}-${String(expires.getDate()).padStart(2, "0")}`,
    ).toBe(picked);

    await dialog.getByTestId("share-copy").click();
    await eventually(() => toast("success").textContent()).toBe("Recipe link copied to clipboard");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${app.url}/g/${app.groupSlug}/shared/r/${shares[0].id}`,
    );
    await screenshot(page, "recipe-share-dialog");

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    dialog = await openShare();
    await eventually(() => dialog.locator("[data-token]").count()).toBe(1);
  });

  it("reports clipboard failures with the spec's wording", async () => {
    const dialog = page.getByTestId("share-dialog");
    await page.evaluate(() =>
      Object.defineProperty(navigator, "clipboard", {
        configurable: true,
        value: { writeText: () => Promise.reject(new Error("denied")) },
      }),
    );
    await dialog.getByTestId("share-copy").click();
    await eventually(() => toast("error").textContent()).toBe("Failed to copy to the clipboard");
    await page.evaluate(() =>
      Object.defineProperty(navigator, "clipboard", { configurable: true, value: undefined }),
    );
    await dialog.getByTestId("share-copy").click();
    await eventually(() => toast("error").textContent()).toBe("Clipboard not supported");
  });

  it("deletes a link from the list", async () => {
    const dialog = page.getByTestId("share-dialog");
    await dialog.getByRole("button", { name: "Create link" }).click();
    await eventually(() => dialog.locator("[data-token]").count()).toBe(2);
    await dialog.locator("[data-token]").last().getByRole("button", { name: "Delete link" }).click();
    await eventually(() => toast("success").textContent()).toBe("Share link deleted");
    await eventually(() => dialog.locator("[data-token]").count()).toBe(1);
    expect(await app.larder.shares.list(app.adminActor, recipeId)).toHaveLength(1);
    await page.keyboard.press("Escape");
  });

  // Uses the link the first journey created.
  it("opens the shared link signed out, read-only", async () => {
    const [share] = await app.larder.shares.list(app.adminActor, recipeId);
    const visitor = await newPage(browser, app, { errors });
    try {
      const res = await visitor.goto(`/g/${app.groupSlug}/shared/r/${share.id}`);
      expect(res?.status()).toBe(200);
      await hydrated(visitor);
      await expect(visitor.locator("h1.recipe__title").textContent()).resolves.toBe("Lemon Tart");
      await expect(visitor.locator(".recipe__ingredients li").first().textContent()).resolves.toBe(
        "3 lemons",
      );
      expect(await visitor.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
      expect(await visitor.getByTestId("rating-own").count()).toBe(0);
      expect(await visitor.getByTestId("favorite").count()).toBe(0);
      // A visitor's menu: print and print preferences only.
      await visitor.getByTestId("recipe-menu").click();
      // The menu opens on the next frame: wait for it before reading what it offers.
      await visitor.getByRole("menuitem").first().waitFor();
      expect(await visitor.getByRole("menuitem").allTextContents()).toEqual(["Print", "Print preferences"]);
      await visitor.keyboard.press("Escape");
      expect(
        (await visitor.context().cookies()).find((c) => c.name === "mealie.access_token"),
      ).toBeUndefined();
      await screenshot(visitor, "recipe-share-shared-page");
    } finally {
      await visitor.context().close();
    }
  });

  it("answers an expired or unknown link with page not found", async () => {
    const expired = await app.larder.shares.create(app.adminActor, {
      recipeId,
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    const visitor = await newPage(browser, app);
    try {
      for (const token of [expired.id, "00000000-0000-4000-8000-000000000000"]) {
        const res = await visitor.goto(`/g/${app.groupSlug}/shared/r/${token}`);
        expect(res?.status()).toBe(404);
        await expect(visitor.locator("h1").first().textContent()).resolves.toBe("page not found");
      }
      await screenshot(visitor, "recipe-share-expired");
    } finally {
      await visitor.context().close();
    }
  });

  it("lets a visitor of a public group read a public recipe, without the members' controls", async () => {
    const { larder } = app;
    await larder.recipes.update(app.adminActor, "lemon-tart", { settings: { public: true } }, "patch");
    const group = larder.groups.byId(app.admin.groupId)!;
    const household = larder.groups.householdById(app.admin.householdId)!.household;
    await larder.groups.updateGroup(group, {
      preferences: { ...group.doc.data.preferences, privateGroup: false },
    });
    await larder.groups.updateHousehold(household, {
      preferences: { ...household.doc.data.preferences, privateHousehold: false },
    });
    const visitor = await newPage(browser, app, { errors });
    try {
      await visitor.goto(path());
      await hydrated(visitor);
      await expect(visitor.locator("h1.recipe__title").textContent()).resolves.toBe("Lemon Tart");
      expect(await visitor.getByTestId("rating-own").count()).toBe(0);
      expect(await visitor.getByTestId("mode-switch").getByText("Edit").count()).toBe(0);
      expect(await visitor.locator(".recipe__comments").count()).toBe(0);
      await visitor.getByTestId("recipe-menu").click();
      // The menu opens on the next frame: wait for it before reading what it offers.
      await visitor.getByRole("menuitem").first().waitFor();
      expect(await visitor.getByRole("menuitem").allTextContents()).toEqual(["Print", "Print preferences"]);
      await screenshot(visitor, "recipe-share-public-visitor");
    } finally {
      await visitor.context().close();
      await larder.groups.updateGroup(group, {
        preferences: { ...group.doc.data.preferences, privateGroup: true },
      });
    }
  });

  it("had no uncaught page errors or hydration errors", () => {
    expect(errors).toEqual([]);
  });
});
