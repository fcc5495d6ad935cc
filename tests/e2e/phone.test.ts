/**
 * The app on a phone held in the hand (390 × 844, touch), over a demo server as the public demo runs:
 * long names stay inside the screen, every control is a finger's size, the demo banner says its whole
 * sentence, and rows of actions keep a sensible shape. Screenshots: test-results/screenshots/phone-*.png.
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
import { PHONE, boxes, pageOverflow } from "./support/phone.js";

const LONG_WORD = "Supercalifragilisticexpialidociousdonaudampfschifffahrtsgesellschaftskapitaenskuchen";

describeBrowser("phone (Chromium, 390 × 844, touch)", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let longSlug = "";
  let listId = "";
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp({ config: { demo: true } });
    const a = app.adminActor;
    longSlug = await app.larder.recipes.create(a, {
      name: LONG_WORD,
      tags: ["Baking"],
      recipeIngredient: [{ quantity: 1, unit: "cup", food: "flour" }],
    });
    await app.larder.recipes.create(a, {
      name: "Chili",
      tags: ["Dinner", "Spicy"],
      recipeServings: 4,
      recipeIngredient: [{ quantity: 1, food: "onion" }],
    });
    const long = app.larder.recipes.get(a, longSlug);
    const list = await app.larder.shopping.createList(a, { name: "Groceries" });
    listId = list.id;
    await app.larder.foodsUnits.create(a, "foods", { name: "rye flakes" });
    await app.larder.shopping.addRecipe(a, list.id, long.id, {});
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors, ...PHONE });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("wraps a recipe name that is one long word inside the screen, on its page and on a list", async () => {
    await page.goto(`/g/${app.groupSlug}/r/${longSlug}`);
    await hydrated(page);
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, "phone-long-recipe-name");

    // A shopping item names the recipe it came from under its text.
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    await expect.poll(() => page.getByTestId("shopping-item").count()).toBeGreaterThan(0);
    expect(await pageOverflow(page)).toBe(0);
    expect(errors).toEqual([]);
  });

  it("gives every control of the header, a recipe page and a form a 44 px target", async () => {
    await page.goto(`/g/${app.groupSlug}/r/chili`);
    await hydrated(page);
    const controls = [
      ...(await boxes(page, ".shell__header button, .shell__header a")),
      ...(await boxes(page, ".recipe .mantine-ActionIcon-root, .recipe .mantine-Button-root")),
    ];
    expect(controls.length).toBeGreaterThan(5);
    expect(controls.filter((b) => b.width < 44 || b.height < 44)).toEqual([]);
    // And the items of a menu it opens.
    await page.getByRole("button", { name: "Recipe actions" }).click();
    await expect.poll(() => page.getByRole("menuitem").count()).toBeGreaterThan(3);
    const items = await boxes(page, "[role=menuitem]");
    expect(items.filter((b) => b.height < 44)).toEqual([]);
    await page.keyboard.press("Escape");

    await page.goto("/user/profile");
    await hydrated(page);
    const fields = await boxes(page, ".page input.mantine-Input-input, .page .mantine-Button-root");
    expect(fields.length).toBeGreaterThan(3);
    expect(fields.filter((b) => b.height < 44)).toEqual([]);

    // The data tables' own edit and delete buttons.
    await page.goto("/group/data/foods");
    await hydrated(page);
    const icons = await boxes(page, ".settings__icon");
    expect(icons.length).toBeGreaterThan(1);
    expect(icons.filter((b) => b.width < 44 || b.height < 44)).toEqual([]);
  });

  it("keeps a shopping item's move arrows finger-sized without doubling the row's height", async () => {
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    const arrows = await boxes(page, "[data-testid=shopping-item] .shopping-item__arrows button");
    expect(arrows.length).toBeGreaterThan(0);
    expect(arrows.filter((b) => b.width < 44 || b.height < 44)).toEqual([]);
    // Side by side: stacked, two 44 px arrows made every item at least 90 px tall.
    const [up, down] = await page
      .getByTestId("shopping-item")
      .first()
      .locator(".shopping-item__arrows button")
      .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(up).toBe(down);
  });

  it("shows the demo banner's whole sentence, its end included", async () => {
    await page.goto("/user/profile");
    await hydrated(page);
    const banner = page.getByTestId("demo-banner");
    await expect.poll(() => banner.isVisible()).toBe(true);
    const clipped = await banner.evaluate(
      (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
    );
    expect(clipped).toBe(false);
    // The sticky header sits right under it, not over it.
    const [b, h] = await Promise.all([banner.boundingBox(), page.locator(".shell__header").boundingBox()]);
    expect(Math.round(h?.y ?? 0)).toBe(Math.round((b?.y ?? 0) + (b?.height ?? 0)));
  });

  it("shows the users table's administrator badge whole", async () => {
    await page.goto("/admin/manage/users");
    await hydrated(page);
    const label = page.locator("[data-testid^=user-row-] .mantine-Badge-label").first();
    await expect.poll(() => label.isVisible()).toBe(true);
    expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await pageOverflow(page)).toBe(0);
  });

  it("puts an organizer's name on its own line and its actions together on the next", async () => {
    await page.goto(`/g/${app.groupSlug}/recipes/tags`);
    await hydrated(page);
    const row = page.getByTestId("organizer-row").first();
    const [title, rename, merge, remove] = await Promise.all(
      ["organizer-open", "organizer-rename", "organizer-merge", "organizer-delete"].map((id) =>
        row.getByTestId(id).boundingBox(),
      ),
    );
    const middle = (b: typeof title) => Math.round((b?.y ?? 0) + (b?.height ?? 0) / 2);
    // The actions share one line, below the name.
    expect(middle(rename)).toBe(middle(merge));
    expect(middle(merge)).toBe(middle(remove));
    expect(middle(rename)).toBeGreaterThan((title?.y ?? 0) + (title?.height ?? 0));
    await screenshot(page, "phone-organizers");
  });

  it("keeps the recipe editor's Save bar in sight under the header and banner while scrolling", async () => {
    await page.goto(`/g/${app.groupSlug}/r/chili?edit=true`);
    await hydrated(page);
    const save = page.getByTestId("save-recipe");
    await expect.poll(() => save.isVisible()).toBe(true);
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    // What a finger on Save's middle touches is Save, not the header stuck over it.
    const onSave = await save.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    });
    expect(onSave).toBe(true);
  });

  it("keeps the small crosses of an editor's tag pills", async () => {
    await page.goto(`/g/${app.groupSlug}/r/chili?edit=true`);
    await hydrated(page);
    const crosses = await boxes(page, ".mantine-Pill-remove");
    expect(crosses.length).toBeGreaterThan(0);
    const pills = await boxes(page, ".mantine-Pill-root");
    expect(Math.max(...crosses.map((b) => b.height))).toBeLessThanOrEqual(
      Math.max(...pills.map((b) => b.height)),
    );
    // Nor squeezed to a sliver: a cross is a few pixels wide still.
    expect(Math.min(...crosses.map((b) => b.width))).toBeGreaterThanOrEqual(16);
  });

  it("keeps a shopping list's menu beside its name", async () => {
    await page.goto(`/shopping-lists/${listId}`);
    await hydrated(page);
    const [title, menu] = await Promise.all([
      page.locator(".shopping__title").boundingBox(),
      page.getByTestId("list-menu").boundingBox(),
    ]);
    expect(menu?.y).toBeLessThan((title?.y ?? 0) + (title?.height ?? 0));
    expect(menu?.x).toBeGreaterThan((title?.x ?? 0) + (title?.width ?? 0) - 1);
  });

  it("starts an admin page's title at the left edge, as on every other page", async () => {
    await page.goto("/admin/manage/users");
    await hydrated(page);
    const [title, table] = await Promise.all([
      page.locator(".admin-page .page__title").boundingBox(),
      page.locator(".admin-table-wrap").boundingBox(),
    ]);
    expect(Math.round(title?.x ?? 0)).toBe(Math.round(table?.x ?? -1));
  });

  it("fits the recipe editor and the migrations form in a 360 px screen", async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    try {
      await page.goto(`/g/${app.groupSlug}/r/chili?edit=true`);
      await hydrated(page);
      await expect.poll(() => page.getByTestId("parse-ingredients").isVisible()).toBe(true);
      expect(await pageOverflow(page)).toBe(0);
      await page.goto(`/g/${app.groupSlug}/data/migrations`);
      await hydrated(page);
      expect(await pageOverflow(page)).toBe(0);
    } finally {
      await page.setViewportSize(PHONE.viewport);
    }
  });

  it("keeps the groups' and households' Edit and Delete on a 360 px screen", async () => {
    await page.setViewportSize({ width: 360, height: 640 });
    try {
      for (const [path, one] of [
        ["/admin/manage/groups", "group"],
        ["/admin/manage/households", "household"],
      ]) {
        await page.goto(path);
        await hydrated(page);
        const remove = page.locator(`[data-testid^=${one}-delete-]`).first();
        await expect.poll(() => remove.isVisible()).toBe(true);
        const box = await remove.boundingBox();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
        // Its table does not scroll sideways to reach them.
        const wrap = page.locator(".admin-table-wrap").first();
        expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
        await expect.poll(() => page.getByTestId(`${one}-counts`).first().isVisible()).toBe(true);
      }
    } finally {
      await page.setViewportSize(PHONE.viewport);
    }
  });

  it("shows every permission of a household member inside the screen, each with its name", async () => {
    await page.goto("/household/members");
    await hydrated(page);
    const row = page.locator("[data-testid^=member-row-]").first();
    await expect.poll(() => row.isVisible()).toBe(true);
    const perms = row.locator("[data-testid^=perm-]");
    expect(await perms.count()).toBe(4);
    const right = await row
      .locator(".mantine-Checkbox-root")
      .evaluateAll((els) => Math.max(...els.map((el) => el.getBoundingClientRect().right)));
    expect(right).toBeLessThanOrEqual(390 - 16);
    await expect.poll(() => row.getByText("Manage household").isVisible()).toBe(true);
  });

  it("reads the demo banner's version in Hebrew in the order it is written: Larder, then its number", async () => {
    const he = await newPage(browser, app, { errors, ...PHONE, locale: "he-IL" });
    await signIn(he);
    await he.goto("/user/profile");
    await hydrated(he);
    await expect.poll(() => he.evaluate(() => document.documentElement.dir)).toBe("rtl");
    // Where "Larder" and the number after it are drawn: in a right-to-left line the pair is still one
    // left-to-right phrase, not "(0.1.0 Larder)".
    const [larder, number] = await he.getByTestId("demo-banner").evaluate((el) => {
      const node = el.firstChild as Text;
      const text = node.data;
      const at = text.indexOf("Larder");
      const from = at + "Larder ".length;
      const to = text.indexOf(")", from);
      const left = (start: number, end: number) => {
        const range = document.createRange();
        range.setStart(node, start);
        range.setEnd(node, end);
        return range.getBoundingClientRect().left;
      };
      return [left(at, at + "Larder".length), left(from, to)];
    });
    expect(larder).toBeLessThan(number);
    await he.context().close();
  });
});
