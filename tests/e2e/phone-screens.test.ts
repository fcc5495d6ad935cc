/**
 * More screens on a phone held in the hand (390 × 844, touch): a recipe printed from a narrow page, the
 * recipe toolbar, a step's linked ingredients, the planner's and cookbooks' links, the notifier dialog,
 * the backups table and a restore, and a password reset asked for by e-mail over a real SMTP server
 * (npm `smtp-server` on loopback). Screenshots: test-results/screenshots/phone-*.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { SMTPServer } from "smtp-server";
import {
  ADMIN,
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
import { PHONE, pageOverflow, tapHeights } from "./support/phone.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("phone screens (Chromium, 390 × 844, touch)", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let smtp: SMTPServer;
  const inbox: string[] = [];
  const errors: string[] = [];

  const open = async (path: string) => {
    await page.goto(path);
    await hydrated(page);
  };

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      hideSTARTTLS: true,
      logger: false,
      onData(stream, _session, done) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          inbox.push(Buffer.concat(chunks).toString("utf8"));
          done();
        });
      },
    });
    await new Promise<void>((ok) => smtp.listen(0, "127.0.0.1", ok));
    const { port } = smtp.server.address() as { port: number };
    app = await startApp({
      config: {
        smtp: {
          HOST: "127.0.0.1",
          PORT: String(port),
          FROM_EMAIL: "larder@example.com",
          AUTH_STRATEGY: "NONE",
        },
      },
    });
    const a = app.adminActor;
    await app.larder.recipes.create(a, {
      name: "Garlic Greens",
      tags: ["Dinner", "Spicy", "Weeknight favourites"],
      recipeCategory: ["Main course"],
      recipeIngredient: [
        { referenceId: "a", quantity: 2, unit: "tablespoon", food: "olive oil" },
        { referenceId: "b", quantity: 2, unit: "clove", food: "garlic", note: "sliced thinly, the long way" },
        { referenceId: "c", quantity: 0.5, unit: "teaspoon", food: "salt" },
      ],
      recipeInstructions: [
        {
          text: "Warm the oil and garlic, then add the greens and salt.",
          ingredientReferences: [{ referenceId: "a" }, { referenceId: "b" }, { referenceId: "c" }],
        },
      ],
    });
    const recipe = app.larder.recipes.get(a, "garlic-greens");
    await app.larder.mealplans.create(a, {
      date: new Date().toISOString().slice(0, 10),
      entryType: "dinner",
      recipeId: recipe.id,
    });
    await app.larder.cookbooks.create(a, { name: "Soups", queryFilterString: "" });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors, ...PHONE });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    await new Promise<void>((ok) => (smtp ? smtp.close(() => ok()) : ok()));
  });

  it("prints a recipe from a phone in one column, and from a sheet's width in two", async () => {
    await open(`/g/${app.groupSlug}/r/garlic-greens`);
    await page.emulateMedia({ media: "print" });
    try {
      const box = (selector: string) => page.locator(selector).boundingBox();
      // On the phone: in two columns the ingredients had a third of the width, and "Ingredients"
      // broke over two lines.
      const [ingredients, steps] = [await box(".recipe__ingredients"), await box(".recipe__instructions")];
      expect(ingredients?.width).toBeGreaterThan(300);
      expect(steps?.y).toBeGreaterThan((ingredients?.y ?? 0) + (ingredients?.height ?? 0));
      const titleLines = await page
        .locator("#ingredients-title, #instructions-title")
        .evaluateAll((hs) =>
          hs.map((h) =>
            Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)),
          ),
        );
      expect(titleLines).toEqual([1, 1]);
      expect(await pageOverflow(page)).toBe(0);
      await screenshot(page, "phone-print");
      // An A4 sheet's width (about 700 px, under the screen's 900 px breakpoint): the steps beside the
      // ingredients, and wider than them, not both squeezed into the left column.
      await page.setViewportSize({ width: 700, height: 1000 });
      const [wideIngredients, wideSteps] = [
        await box(".recipe__ingredients"),
        await box(".recipe__instructions"),
      ];
      expect(wideSteps?.x).toBeGreaterThan((wideIngredients?.x ?? 0) + (wideIngredients?.width ?? 0));
      expect(wideSteps?.width).toBeGreaterThan(wideIngredients?.width ?? 0);
    } finally {
      await page.emulateMedia({ media: "screen" });
      await page.setViewportSize(PHONE.viewport);
    }
  });

  it("keeps the recipe menu and Timeline together, the mode switch filling its row", async () => {
    for (const lang of ["en-US", "de-DE"]) {
      await page.context().addCookies([{ name: "lang", value: lang, url: app.url }]);
      await open(`/g/${app.groupSlug}/r/garlic-greens`);
      const toolbar = await page.locator(".recipe__toolbar").boundingBox();
      const [modes, menu, timeline] = await Promise.all(
        ["mode-switch", "recipe-menu", "recipe-timeline-button"].map((id) =>
          page.getByTestId(id).boundingBox(),
        ),
      );
      const middle = (b: typeof menu) => Math.round((b?.y ?? 0) + (b?.height ?? 0) / 2);
      // Before, Timeline alone went down a line and left the menu beside the switch.
      expect(middle(menu), lang).toBe(middle(timeline));
      const sameRow = middle(modes) === middle(menu);
      const right = (b: typeof menu) => Math.round((b?.x ?? 0) + (b?.width ?? 0));
      // Either one row, or the switch alone on the first, as wide as the toolbar.
      if (!sameRow) expect(right(modes), lang).toBe(right(toolbar));
      expect(await pageOverflow(page)).toBe(0);
    }
    await page.context().addCookies([{ name: "lang", value: "en-US", url: app.url }]);
  });

  it("shows a step's linked ingredients whole in the editor", async () => {
    await open(`/g/${app.groupSlug}/r/garlic-greens?edit=true`);
    await interactive(page, '[data-testid="recipe-editor"]');
    const labels = page.locator(".step-row .mantine-Pill-label");
    await eventually(() => labels.count()).toBe(3);
    const cut = await labels.evaluateAll((els) =>
      els
        .filter((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)
        .map((el) => el.textContent),
    );
    expect(cut).toEqual([]);
    expect(await labels.nth(1).textContent()).toContain("sliced thinly, the long way");
    expect(await pageOverflow(page)).toBe(0);
  });

  it("gives a planned recipe's name, a cookbook's name and a tag chip a larger target than their text", async () => {
    await open("/household/mealplan/planner/view");
    const planned = await tapHeights(page, "a.plan-entry__name");
    expect(planned.length).toBe(1);
    expect(planned.filter((t) => t.height < 44)).toEqual([]);

    await open(`/g/${app.groupSlug}/cookbooks`);
    const cookbooks = await tapHeights(page, "a.list-row__title");
    expect(cookbooks.length).toBe(1);
    expect(cookbooks.filter((t) => t.height < 44)).toEqual([]);

    // Chips reach halfway into the gap around them, so a tap between two lands on one.
    await open(`/g/${app.groupSlug}/r/garlic-greens`);
    const chipHeight = await page
      .locator(".recipe__organizers .chip")
      .first()
      .evaluate((el) => el.getBoundingClientRect().height);
    const chips = await tapHeights(page, ".recipe__organizers .chip");
    expect(chips.length).toBe(4);
    expect(chips.filter((t) => t.height < chipHeight + 5)).toEqual([]);
  });

  it("makes each of the notifier's event checkboxes a finger's height, box included", async () => {
    await open("/household/notifiers");
    await page.getByTestId("create-open").click();
    // The dialog mounts on the click's next render: measured before, it had no rows (a CI flake).
    await page.locator("[role=dialog] .mantine-Checkbox-root").first().waitFor();
    const rows = await tapHeights(page, "[role=dialog] .mantine-Checkbox-root");
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((t) => t.height < 44)).toEqual([]);
    // A tap just above the box, on its row, still toggles it.
    const first = page.locator("[role=dialog] .mantine-Checkbox-root").nth(1);
    await first.scrollIntoViewIfNeeded();
    const box = (await first.locator(".mantine-Checkbox-body").boundingBox())!;
    const before = await first.locator("input").isChecked();
    await page.touchscreen.tap(box.x + 4, box.y + 3);
    await eventually(() => first.locator("input").isChecked()).toBe(!before);
    await page.keyboard.press("Escape");
  });

  it("sets the servings with side-by-side steppers a finger square, more on the right", async () => {
    await open(`/g/${app.groupSlug}/r/garlic-greens?edit=true`);
    await interactive(page, '[data-testid="recipe-editor"]');
    const servings = page.getByLabel("Servings", { exact: true });
    const root = page.locator(".mantine-NumberInput-root", { has: servings });
    const controls = root.locator(".mantine-NumberInput-control");
    await controls.first().scrollIntoViewIfNeeded();
    const [up, down] = [(await controls.nth(0).boundingBox())!, (await controls.nth(1).boundingBox())!];
    expect(Math.min(up.width, up.height, down.width, down.height)).toBeGreaterThanOrEqual(43.5);
    expect(down.x + down.width).toBeLessThanOrEqual(up.x + 0.5);
    await servings.fill("4");
    await page.touchscreen.tap(up.x + up.width / 2, up.y + up.height / 2);
    await eventually(() => servings.inputValue()).toBe("5");
    await page.touchscreen.tap(down.x + down.width / 2, down.y + down.height / 2);
    await page.touchscreen.tap(down.x + down.width / 2, down.y + down.height / 2);
    await eventually(() => servings.inputValue()).toBe("3");
    // The number itself keeps the rest of the input, none of it under the steppers.
    const field = (await servings.boundingBox())!;
    expect(field.width).toBeGreaterThan(150);
  });

  it("shows an empty planner day without a blank band under its buttons", async () => {
    await open("/household/mealplan/planner/view");
    const gaps = await page.locator(".plan-day").evaluateAll((days) =>
      days.map((d) => {
        const last = d.lastElementChild!.getBoundingClientRect();
        return Math.round(d.getBoundingClientRect().bottom - last.bottom);
      }),
    );
    expect(gaps.length).toBe(7);
    expect(gaps.filter((g) => g > 16)).toEqual([]);
  });

  it("scrolls the notifier dialog to its Create button", async () => {
    await open("/household/notifiers");
    await page.getByTestId("create-open").click();
    const create = page.getByRole("dialog").getByRole("button", { name: "Create" });
    await create.scrollIntoViewIfNeeded();
    const box = await create.boundingBox();
    expect((box?.y ?? 900) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await page.keyboard.press("Escape");
  });

  it("shows a backup's date and size under its name, and restores it", async () => {
    await app.larder.backups.create(app.adminActor);
    await open("/admin/backups");
    const row = page.getByTestId("backup-row").first();
    await expect.poll(() => row.isVisible()).toBe(true);
    // Squeezed into three columns the name broke every few digits over five lines.
    const nameLines = await row
      .locator("td")
      .first()
      .locator("p, div")
      .first()
      .evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
      );
    expect(nameLines).toBeLessThanOrEqual(2);
    await expect.poll(() => row.getByTestId("backup-facts").textContent()).toMatch(/UTC · \d+(\.\d+)? kB$/);
    expect(
      await row
        .locator("td")
        .evaluateAll((tds) => tds.filter((td) => td.getBoundingClientRect().width > 0).length),
    ).toBe(2);
    expect(await pageOverflow(page)).toBe(0);
    await screenshot(page, "phone-backups");

    await row.getByTestId("backup-restore").click();
    const restore = page.getByTestId("backup-restore-dialog").getByRole("button", { name: "Restore" });
    const box = await restore.boundingBox();
    expect((box?.y ?? 900) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
    await restore.click();
    await page.waitForURL(/\/login\?direct=1&restored=1$/);
    expect(await pageOverflow(page)).toBe(0);
  });

  it("asks for a password reset by e-mail and sets a new password, every link a finger's height", async () => {
    await page.context().clearCookies();
    await open("/login");
    expect((await tapHeights(page, ".auth a")).filter((t) => t.height < 44)).toEqual([]);
    await page.getByTestId("forgot-password").click();
    await page.waitForURL(/\/forgot-password$/);
    await hydrated(page);
    expect((await tapHeights(page, ".auth a")).filter((t) => t.height < 44)).toEqual([]);
    await page.fill("#email", ADMIN.email);
    await page.locator("button[type=submit]").click();
    await page.getByTestId("forgot-sent").waitFor();
    expect(await pageOverflow(page)).toBe(0);

    await eventually(() => inbox.length).toBe(1);
    // The link's token, out of a quoted-printable or base64 body alike.
    const raw = inbox[0].replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
    const token = /reset-password\/?\?token=([\w-]+)/.exec(raw)?.[1] ?? textToken(raw);
    expect(token).toBeTruthy();
    await open(`/reset-password?token=${token}`);
    expect(await pageOverflow(page)).toBe(0);
    await page.getByTestId("field-password").fill("a-new-phone-password-1");
    await page.getByTestId("field-passwordConfirm").fill("a-new-phone-password-1");
    await page.getByTestId("reset-submit").click();
    await page.waitForURL((u) => u.pathname === "/login");
    await signIn(page, ADMIN.username, "a-new-phone-password-1");
    expect(errors).toEqual([]);
  });
});

/** The token of a reset link in a base64-encoded text part. */
function textToken(raw: string): string | undefined {
  for (const part of raw.split(/\r?\n\r?\n/)) {
    const text = Buffer.from(part.replace(/\s+/g, ""), "base64").toString("utf8");
    const m = /reset-password\/?\?token=([\w-]+)/.exec(text);
    if (m) return m[1];
  }
  return undefined;
}
