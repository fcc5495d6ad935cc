/**
 * Shopping lists in Chromium (issue 20): a list created on /shopping-lists and filled from a recipe's
 * menu; two browsers on one list seeing each other's check-offs within a second over the live channel;
 * check-offs and a new item made offline, kept over a reload, and sent when the network is back (the
 * service worker serves the page, decision 0085); and the list page on a phone without horizontal
 * overflow. Screenshots: test-results/screenshots/shopping-*.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
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

const eventually = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout });

describeBrowser("shopping lists", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  let listId = "";

  const serverItems = async () => (await app.larder.shopping.getList(app.adminActor, listId)).listItems;
  const row = (p: Page, text: string) => p.getByTestId("shopping-item").filter({ hasText: text }).first();

  beforeAll(async () => {
    app = await startApp();
    await app.larder.recipes.create(app.adminActor, {
      name: "Chili",
      recipeServings: 4,
      recipeIngredient: [
        { quantity: 1, food: "onion" },
        { quantity: 2, unit: "clove", food: "garlic" },
        { quantity: 500, unit: "gram", food: "beans" },
        { quantity: 1, food: "tomatoes" },
        { quantity: 1, note: "chili powder" },
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

  it("creates a list and adds a recipe's ingredients from the recipe menu", async () => {
    await page.goto("/shopping-lists");
    await hydrated(page);
    await page.getByTestId("create-list").click();
    await page.getByTestId("list-name").fill("Groceries");
    await page.getByTestId("list-name").press("Enter");
    await page.waitForURL(/\/shopping-lists\/[0-9a-f-]{36}$/);
    listId = page.url().split("/").pop() ?? "";
    await hydrated(page);

    await page.goto(`/g/${app.groupSlug}/r/chili`);
    await hydrated(page);
    await page.getByTestId("recipe-menu").click();
    await page.getByRole("menuitem", { name: "Add to shopping list" }).click();
    // One list of mine: the dialog goes straight to the ingredients, all checked (nothing on hand).
    const dialog = page.getByTestId("add-to-list-dialog");
    await eventually(() => dialog.getByTestId("pick-ingredient").count()).toBe(5);
    await expect(dialog.getByRole("checkbox", { checked: true }).count()).resolves.toBe(5);
    await dialog.getByRole("button", { name: "Add to list" }).click();
    await page.locator("[data-toast=success]").filter({ hasText: "Successfully added to list" }).waitFor();
    await eventually(async () => (await serverItems()).length).toBe(5);

    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    await eventually(() => page.getByTestId("shopping-item").count()).toBe(5);
    await screenshot(page, "shopping-list-from-recipe");
    expect(errors).toEqual([]);
  });

  it("takes a recipe off the list from the list's own page", async () => {
    const other = await app.larder.shopping.createList(app.adminActor, { name: "Chili night" });
    const recipe = app.larder.recipes.store.get(app.groupSlug, "chili")!;
    await app.larder.shopping.addRecipe(app.adminActor, other.id, recipe.id, {});
    await page.goto(`/shopping-lists/${other.id}`);
    await hydrated(page);
    await eventually(() => page.getByTestId("shopping-item").count()).toBe(5);
    await page.getByTestId("list-recipes").click();
    await page.getByTestId("remove-recipe").click();
    await page.locator("[data-toast=success]").filter({ hasText: "is off the list" }).waitFor();
    await eventually(() => page.getByTestId("shopping-item").count()).toBe(0);
    expect((await app.larder.shopping.getList(app.adminActor, other.id)).listItems).toHaveLength(0);
    expect(errors).toEqual([]);
  });

  it("shows one phone's check-off on another within a second, both ways", async () => {
    const other = await newPage(browser, app);
    await signIn(other);
    await other.goto(`/shopping-lists/${listId}`);
    await hydrated(other);
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    // Both pages hold their live stream open before the first change.
    await eventually(() => app.larder.live.size()).toBeGreaterThanOrEqual(2);

    await row(page, "onion").getByRole("checkbox").click();
    await other
      .getByTestId("checked-items")
      .getByTestId("shopping-item")
      .filter({ hasText: "onion" })
      .waitFor({ state: "attached", timeout: 1000 });

    await row(other, "garlic").getByRole("checkbox").click();
    await page
      .getByTestId("checked-items")
      .getByTestId("shopping-item")
      .filter({ hasText: "garlic" })
      .waitFor({ state: "attached", timeout: 1000 });

    await eventually(async () => (await serverItems()).filter((i) => i.checked).length).toBe(2);
    await screenshot(other, "shopping-live-other-phone");
    await other.context().close();
  });

  it("reorders items from the keyboard: arrow keys on an item's handle", async () => {
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    const byLabel = page.getByTestId("view-by-label");
    if (await byLabel.isChecked()) await byLabel.click({ force: true });
    const open = page.getByTestId("open-items").getByTestId("shopping-item");
    await eventually(() => open.count()).toBe(3);
    const first = (await open.first().getAttribute("data-item-id")) ?? "";
    await open.first().locator(".shopping-item__handle").focus();
    await page.keyboard.press("ArrowDown");
    await eventually(() => open.nth(1).getAttribute("data-item-id")).toBe(first);
    // The handle keeps the focus in the item's new place, so a second press moves it on.
    await eventually(() =>
      page.evaluate(() => document.activeElement?.closest("[data-item-id]")?.getAttribute("data-item-id")),
    ).toBe(first);
    const order = async () =>
      (await serverItems())
        .filter((i) => !i.checked)
        .sort((a, b) => a.position - b.position)
        .map((i) => i.id);
    await eventually(async () => (await order()).indexOf(first)).toBe(1);
    await screenshot(page, "shopping-reordered");
    // Checking an item off from the keyboard moves focus on to the next open item, not to the page.
    const top = (await open.first().getAttribute("data-item-id")) ?? "";
    const second = (await open.nth(1).getAttribute("data-item-id")) ?? "";
    await open.first().getByRole("checkbox").focus();
    await page.keyboard.press("Space");
    await eventually(() =>
      page.evaluate(() => document.activeElement?.closest("[data-item-id]")?.getAttribute("data-item-id")),
    ).toBe(second);
    await page.getByTestId("checked-section").locator("summary").click();
    await page.locator(`[data-item-id="${top}"]`).getByRole("checkbox").click();
    await eventually(async () => (await serverItems()).find((i) => i.id === top)?.checked).toBe(false);
    await byLabel.click({ force: true });
  });

  it("keeps check-offs and a new item made offline over a reload, and sends them when back online", async () => {
    const context: BrowserContext = page.context();
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    // The service worker controls the page and has kept it (and its files) for offline use.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, {
      timeout: 15_000,
    });
    await eventually(() =>
      page.evaluate(async (path) => {
        const keys = await caches.keys();
        for (const k of keys) if (await (await caches.open(k)).match(path, { ignoreVary: true })) return true;
        return false;
      }, `/shopping-lists/${listId}`),
    ).toBe(true);
    // So is the page's text: it hydrates only once its language's catalogues are in.
    await eventually(() =>
      page.evaluate(async () => {
        for (const k of await caches.keys())
          for (const r of await (await caches.open(k)).keys())
            if (/\/locales\/en-US\/catalogues\.json\?v=/.test(r.url)) return true;
        return false;
      }),
    ).toBe(true);

    await context.setOffline(true);
    await eventually(() => page.evaluate(() => navigator.onLine)).toBe(false);
    // Really offline: the page's own requests fail.
    expect(
      await page.evaluate(() =>
        fetch("/api/app/about").then(
          () => "reached",
          () => "failed",
        ),
      ),
    ).toBe("failed");
    for (const food of ["beans", "tomato", "chili powder"])
      await row(page, food).getByRole("checkbox").click();
    await page.getByTestId("item-food").fill("bread");
    await page.getByTestId("add-item").click();
    await eventually(() => page.getByTestId("sync-status").getAttribute("data-pending")).toBe("4");
    expect((await serverItems()).filter((i) => i.checked).length).toBe(2);

    await page.reload();
    await hydrated(page);
    await eventually(() => page.getByTestId("sync-status").getAttribute("data-pending")).toBe("4");
    await expect(row(page, "bread").isVisible()).resolves.toBe(true);
    await screenshot(page, "shopping-offline-waiting");

    // A recipe opened earlier opens again with no network, and so does the list.
    await page.goto(`/g/${app.groupSlug}/r/chili`);
    await page.getByRole("heading", { name: "Chili" }).waitFor();
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    await eventually(() => page.getByTestId("sync-status").getAttribute("data-pending")).toBe("4");

    await context.setOffline(false);
    await eventually(async () => {
      const items = await serverItems();
      return {
        checked: items.filter((i) => i.checked).length,
        bread: items.some((i) => i.note === "bread" || i.food?.name === "bread"),
      };
    }).toEqual({ checked: 5, bread: true });
    await page.getByTestId("sync-status").waitFor({ state: "detached" });
    await screenshot(page, "shopping-back-online");
    expect(errors).toEqual([]);
  });

  it("fits a phone: the list page has no horizontal overflow at 390×844", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, isMobile: true });
    await signIn(phone);
    await phone.goto(`/shopping-lists/${listId}`);
    await hydrated(phone);
    await phone.getByTestId("checked-section").locator("summary").click();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, "shopping-phone");
    // A finger moves an item with the arrows (the grip drags with a mouse only), in the list's own order.
    const byLabel = phone.getByTestId("view-by-label");
    const wasByLabel = await byLabel.isChecked();
    if (wasByLabel) await byLabel.click({ force: true });
    const open = phone.getByTestId("open-items").getByTestId("shopping-item");
    await phone.getByTestId("item-food").fill("paper towels");
    await phone.keyboard.press("Escape");
    await phone.getByTestId("add-item").click();
    await eventually(async () => (await open.count()) >= 2).toBe(true);
    const first = (await open.first().getAttribute("data-item-id")) ?? "";
    await expect(open.first().locator(".shopping-item__handle").isVisible()).resolves.toBe(false);
    // The ends of the list cannot move further: their arrows are off, not dead.
    await expect(
      open
        .first()
        .getByRole("button", { name: /^Move .* up$/ })
        .isDisabled(),
    ).resolves.toBe(true);
    await expect(
      open
        .last()
        .getByRole("button", { name: /^Move .* down$/ })
        .isDisabled(),
    ).resolves.toBe(true);
    await open
      .first()
      .getByRole("button", { name: /^Move .* down$/ })
      .click();
    await eventually(() => open.nth(1).getAttribute("data-item-id")).toBe(first);
    await phone.goto("/shopping-lists");
    await hydrated(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone, "shopping-lists-phone");
    // Installable: the manifest names icons that load.
    const manifest = await phone.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>("link[rel=manifest]")?.href ?? "";
      const m = (await (await fetch(href)).json()) as { icons: { src: string }[]; start_url: string };
      const types = await Promise.all(
        m.icons.map(async (i) => (await fetch(i.src)).headers.get("Content-Type")?.split(";")[0]),
      );
      return { start: m.start_url, types };
    });
    expect(manifest.start).toBe("/");
    expect(manifest.types).toEqual(["image/png", "image/png", "image/png", "image/svg+xml"]);
    await phone.context().close();
  });
});
