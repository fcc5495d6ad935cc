/**
 * The shell in a real browser (issue 7): login and logout, search with '/' and the arrow keys, the group
 * home's filters, dark mode, a phone, a right-to-left language, a visitor of a public group, and the
 * exact spec §5 wording of the profile's password rules. Each journey ends with a screenshot under
 * test-results/screenshots/shell-*.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  ADMIN,
  describeBrowser,
  hydrated,
  launchBrowser,
  login,
  newPage,
  screenshot,
  signIn,
  startApp,
  type App,
} from "./support/browser.js";

describeBrowser("web shell (Chromium)", () => {
  let app: App;
  let browser: Browser;
  const errors: string[] = [];
  const pages: Page[] = [];
  const open = async (opts: Parameters<typeof newPage>[2] = {}) => {
    const p = await newPage(browser, app, { errors, ...opts });
    pages.push(p);
    return p;
  };
  const cardTitles = (p: Page) => p.locator("[data-testid=recipe-card] .card__title").allTextContents();

  beforeAll(async () => {
    app = await startApp();
    const a = app.adminActor;
    await app.larder.recipes.create(a, {
      name: "Tomato Soup",
      description: "A **red** soup",
      tags: ["Dinner", "Soup"],
      recipeCategory: ["Mains"],
      settings: { public: false },
    });
    await app.larder.recipes.create(a, {
      name: "Tomato Salad",
      description: "Fresh",
      tags: ["Lunch"],
      settings: { public: false },
    });
    await app.larder.recipes.create(a, {
      name: "Apple Pie",
      description: "Sweet",
      tags: ["Dessert", "Dinner"],
      settings: { public: false },
    });
    await app.larder.recipes.create(a, {
      name: "Bread",
      description: "Crusty",
      tags: ["Soup"],
      settings: { public: true },
    });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("logs in (wrong password first) and out", async () => {
    const page = await open();
    await page.goto("/");
    await page.waitForURL(/\/login$/);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", "not-the-password");
    // The show/hide button is named in the page's language and is in the tab order.
    const toggle = page.getByRole("button", { name: "Show or hide the password" });
    await expect(toggle.getAttribute("tabindex")).resolves.toBe("0");
    await page.click("button[type=submit]");
    await expect(page.locator("[data-testid=login-error]").textContent()).resolves.toBe(
      "Invalid Credentials",
    );
    await screenshot(page, "shell-01-wrong-password");

    await login(page);
    await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
    await hydrated(page);
    await expect.poll(() => cardTitles(page)).toHaveLength(4);
    await expect(page.locator("[data-testid=drawer-user-name]").textContent()).resolves.toBe(
      app.admin.fullName,
    );
    expect(await cardTitles(page)).toEqual(["Apple Pie", "Bread", "Tomato Salad", "Tomato Soup"]);
    await page.click("[data-testid=logout]");
    await page.waitForURL(/\/login\?direct=1$/);
    await page.goto(`/g/${app.groupSlug}`);
    await page.waitForURL(/\/login\?redirectTo=/);
    await screenshot(page, "shell-02-logged-out");
  });

  it("says 'Account Locked. Please try again later' after too many wrong passwords", async () => {
    const { larder, admin } = app;
    const user = await larder.users.create(
      {
        username: "locky",
        email: "locky@example.com",
        fullName: "Locky",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: admin.groupId, householdId: admin.householdId },
    );
    await larder.auth.setPassword(user.id, "Right-Password-1");
    const page = await open();
    for (let i = 0; i < larder.config.maxLoginAttempts; i++) {
      await page.goto("/login");
      await page.fill("#username", "locky");
      await page.fill("#password", `wrong-${i}`);
      await page.click("button[type=submit]");
      await page.locator("[data-testid=login-error]").waitFor();
    }
    await page.fill("#password", "Right-Password-1");
    await page.click("button[type=submit]");
    await expect(
      page.locator("[data-testid=login-error]", { hasText: "Locked" }).textContent(),
    ).resolves.toBe("Account Locked. Please try again later");
    await screenshot(page, "shell-03-account-locked");
  });

  it("opens search with '/', moves with the arrow keys and opens a result with Enter", async () => {
    const page = await open();
    await signIn(page);
    await hydrated(page);
    await page.keyboard.press("/");
    const input = page.locator("[data-testid=search-input]");
    await input.waitFor();
    await expect(input.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await input.fill("tomato");
    const options = page.locator("#search-results [role=option]");
    await expect.poll(() => options.count(), { timeout: 5000 }).toBe(2);
    expect(await options.locator(".search-result__name").allTextContents()).toEqual([
      "Tomato Salad",
      "Tomato Soup",
    ]);
    await expect(options.nth(0).getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1).getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("ArrowDown"); // wraps around
    await expect(options.nth(0).getAttribute("aria-selected")).resolves.toBe("true");
    await page.keyboard.press("ArrowUp");
    await expect(page.locator("[data-testid=advanced-search]").getAttribute("href")).resolves.toBe(
      `/g/${app.groupSlug}?search=tomato`,
    );
    await screenshot(page, "shell-04-search-dialog");
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/g/${app.groupSlug}/r/tomato-soup$`));
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);

    // Closing clears the query; '/' in a text field types a slash instead.
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.keyboard.press("/");
    await expect(input.inputValue()).resolves.toBe("");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    await page.fill("[data-testid=home-search]", "a/b");
    // A dialog the '/' opened would be rendered by the second animation frame after the key.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))),
    );
    await expect(page.locator("[data-testid=home-search]").inputValue()).resolves.toBe("a/b");
    await expect(page.getByRole("dialog").count()).resolves.toBe(0);
    await screenshot(page, "shell-05-search-closed");
  });

  it("filters the group home through the query string", async () => {
    const page = await open();
    await signIn(page);
    await hydrated(page);
    await page.locator("[data-testid=filter-tags]").click();
    await page.getByRole("option", { name: "Dinner" }).click();
    await page.waitForURL(/tags=dinner/);
    await expect.poll(() => cardTitles(page)).toEqual(["Apple Pie", "Tomato Soup"]);
    await page.keyboard.press("Escape");

    await page.click("[data-testid=order-direction]");
    await page.waitForURL(/orderDirection=desc/);
    await expect.poll(() => cardTitles(page)).toEqual(["Tomato Soup", "Apple Pie"]);
    // The order is a local preference (spec §3): a list opened without an order takes it.
    await page.goto(`/g/${app.groupSlug}?tags=dinner`);
    await page.waitForURL(/orderDirection=desc/);
    await expect.poll(() => cardTitles(page)).toEqual(["Tomato Soup", "Apple Pie"]);
    await hydrated(page);
    await page.click("[data-testid=order-direction]");
    await page.waitForURL(/orderDirection=asc/);
    await expect.poll(() => cardTitles(page)).toEqual(["Apple Pie", "Tomato Soup"]);

    // Two tags match any by default; the require-all switch narrows to recipes with both.
    await page.goto(`/g/${app.groupSlug}?tags=dinner,soup`);
    await hydrated(page);
    expect(await cardTitles(page)).toEqual(["Apple Pie", "Bread", "Tomato Soup"]);
    await page.locator("[data-testid=require-all-tags]").click();
    await page.waitForURL(/requireAllTags=true/);
    await expect.poll(() => cardTitles(page)).toEqual(["Tomato Soup"]);

    await page.click("[data-testid=random-order]");
    await page.waitForURL(/orderBy=random&seed=\d+/);
    await expect(page.locator("[data-testid=recipe-count]").textContent()).resolves.toMatch(/^1 recipe/);
    await screenshot(page, "shell-06-filtered-home");

    // The drawer's Recipes link comes back to this search for the rest of the session.
    await page.goto(`/g/${app.groupSlug}?search=tomato`);
    await hydrated(page);
    await page.goto(`/user/${app.admin.id}/favorites`);
    await hydrated(page);
    await page.click("[data-testid=nav-recipes]");
    await page.waitForURL(/\?search=tomato$/);
    await page.click("[data-testid=clear-filters]");
    await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
    await expect.poll(() => cardTitles(page)).toHaveLength(4);
  });

  it("switches to dark mode and keeps it over a reload", async () => {
    const page = await open({ colorScheme: "light" });
    await signIn(page);
    await hydrated(page);
    const scheme = () =>
      page.evaluate(() => document.documentElement.getAttribute("data-mantine-color-scheme"));
    await expect(scheme()).resolves.toBe("light");
    await page.click("[data-testid=color-scheme-toggle]");
    await expect.poll(scheme).toBe("dark");
    const res = await page.reload();
    // Rendered dark by the server (from the cookie), so there is no light flash.
    expect(await res?.text()).toMatch(/<html[^>]*data-mantine-color-scheme="dark"/);
    await expect(scheme()).resolves.toBe("dark");
    await screenshot(page, "shell-07-dark-mode");
    await page.click("[data-testid=color-scheme-toggle]");
    await expect.poll(scheme).toBe("light");
  });

  it("fits a phone: drawer closed, a search icon, the drawer opens over the page", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(page);
    await hydrated(page);
    const drawer = page.locator("[data-testid=drawer]");
    await expect(drawer.isVisible()).resolves.toBe(false);
    await expect(page.locator("[data-testid=topbar-search]").isVisible()).resolves.toBe(false);
    await page.click("[data-testid=topbar-search-icon]");
    await page.locator("[data-testid=search-input]").waitFor();
    await page.keyboard.press("Escape");
    await page.click("[data-testid=drawer-toggle]:visible");
    await expect.poll(() => drawer.isVisible()).toBe(true);
    const box = await drawer.boundingBox();
    expect(box?.width).toBeCloseTo(240, 1);
    await screenshot(page, "shell-08-phone-drawer");
    // Over the page the drawer is modal: focus is in it and stays there, Escape gives it back to the button.
    const inDrawer = () =>
      page.evaluate(() => document.querySelector("[data-testid=drawer]")!.contains(document.activeElement));
    await expect.poll(inDrawer).toBe(true);
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(i % 5 === 4 ? "Shift+Tab" : "Tab");
      expect(await inDrawer()).toBe(true);
    }
    await expect(page.locator("main").getAttribute("inert")).resolves.not.toBeNull();
    await page.keyboard.press("Escape");
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await expect(page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).resolves.toBe(
      "drawer-toggle",
    );
    await expect(page.locator("main").getAttribute("inert")).resolves.toBeNull();
    await page.click("[data-testid=drawer-toggle]:visible");
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await page.click("[data-testid=nav-favorites]");
    await page.waitForURL(/\/favorites$/);
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await screenshot(page, "shell-09-phone");
    // Beside a wide page the drawer is not modal: Tab from its last control goes on into the page.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => drawer.isVisible()).toBe(true);
    await drawer.locator("a[href], button").last().focus();
    await page.keyboard.press("Tab");
    expect(await inDrawer()).toBe(false);
    await expect(page.locator("main").getAttribute("inert")).resolves.toBeNull();
  });

  it("lays compact cards out on a phone with the picture beside the text, never under it", async () => {
    const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signIn(page);
    await hydrated(page);
    await page.getByTestId("mobile-cards").click();
    await expect.poll(() => page.getByTestId("mobile-cards").getAttribute("aria-pressed")).toBe("true");
    const overlaps = await page.getByTestId("recipe-card").evaluateAll((cards) =>
      cards.map((c) => {
        const media = c.querySelector(".card__media")!.getBoundingClientRect();
        const body = c.querySelector(".card__body")!.getBoundingClientRect();
        return Math.round(media.right - body.left);
      }),
    );
    expect(overlaps.length).toBeGreaterThan(0);
    for (const o of overlaps) expect(o).toBeLessThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId("mobile-cards").click();
  });

  it("switches to a right-to-left language and back", async () => {
    const page = await open();
    await signIn(page);
    await hydrated(page);
    await page.click("[data-testid=language-button]");
    const dialog = page.getByRole("dialog", { name: "Language" });
    await dialog.waitFor();
    // The seven complete languages, and the variants that read them (en-GB, fr-BE, fr-CA).
    await expect(dialog.getByText("100% translated").count()).resolves.toBeGreaterThanOrEqual(7);
    // Each language is a button to a screen reader, in a list (a role on the button hid that).
    await expect(dialog.getByRole("listitem").getByRole("button").count()).resolves.toBeGreaterThanOrEqual(7);
    await dialog.locator("button[value=he-IL]").click();
    await page.waitForFunction(() => document.documentElement.lang === "he-IL");
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe("rtl");
    await expect(page.locator("[data-testid=nav-recipes]").textContent()).resolves.toBe("מתכונים");
    // The drawer moves to the right-hand side.
    const box = await page.locator("[data-testid=drawer]").boundingBox();
    expect(box && box.x > 1000).toBe(true);
    // The week's arrows point the way the week runs.
    await page.goto("/household/mealplan/planner/view");
    await hydrated(page);
    const flipped = await page
      .locator("[data-testid=plan-previous] svg")
      .evaluate((el) => getComputedStyle(el).transform);
    expect(flipped).toMatch(/^matrix\(-1,/);
    // The editor's fields take each text's own direction: English words keep their order in Hebrew.
    await page.goto(`/g/${app.groupSlug}/r/bread?edit=true`);
    await hydrated(page);
    for (const field of ["edit-description", "edit-name"])
      await expect(page.getByTestId(field).evaluate((el) => getComputedStyle(el).unicodeBidi)).resolves.toBe(
        "plaintext",
      );
    await screenshot(page, "shell-10-rtl-hebrew");
    await hydrated(page);
    await page.click("[data-testid=language-button]");
    await page.getByRole("dialog").locator("button[value=en-US]").click();
    await page.waitForFunction(() => document.documentElement.lang === "en-US");
    await expect(page.evaluate(() => document.documentElement.dir)).resolves.toBe("ltr");
    await screenshot(page, "shell-11-back-to-english");
  });

  it("lets a visitor browse and search a public group read-only", async () => {
    const { larder } = app;
    const group = larder.groups.byId(app.admin.groupId)!;
    await larder.groups.updateGroup(group, {
      preferences: { ...group.doc.data.preferences, privateGroup: false },
    });
    const household = larder.groups.householdById(app.admin.householdId)!.household;
    await larder.groups.updateHousehold(household, {
      preferences: { ...household.doc.data.preferences, privateHousehold: false },
    });
    try {
      const page = await open();
      await page.goto(`/g/${app.groupSlug}`);
      await hydrated(page);
      await page.locator("[data-testid=public-notice]").waitFor();
      expect(await cardTitles(page)).toEqual(["Bread"]); // only the public recipe
      await expect(page.locator("[data-testid=create-menu]").count()).resolves.toBe(0);
      await expect(page.locator("[data-testid=nav-favorites]").count()).resolves.toBe(0);
      await expect(page.locator("[data-testid=login]").count()).resolves.toBe(1);
      await page.keyboard.press("/");
      await page.locator("[data-testid=search-input]").fill("bread");
      await expect
        .poll(() => page.locator("#search-results [role=option]").count(), { timeout: 5000 })
        .toBe(1);
      await page.keyboard.press("Escape");
      await screenshot(page, "shell-12-public-visitor");
    } finally {
      await larder.groups.updateGroup(group, {
        preferences: { ...group.doc.data.preferences, privateGroup: true },
      });
    }
  });

  it("checks the password form with the exact spec wording and changes the password", async () => {
    const page = await open();
    await signIn(page);
    await page.goto("/user/profile");
    await hydrated(page);
    // API tokens: created and shown once, then listed.
    await page.fill("[data-testid=token-name]", "my script");
    await page.click("[data-testid=create-token]");
    await expect(page.locator("[data-testid=created-token-value]").textContent()).resolves.toMatch(/^lt_/);
    await expect(page.locator("[data-testid=token-list]").textContent()).resolves.toContain("my script");
    await screenshot(page, "shell-13-profile-token");

    const errorOf = (name: string) =>
      page.locator(`[data-testid=password-${name}]`).evaluate((el) => {
        const id = el
          .getAttribute("aria-describedby")
          ?.split(" ")
          .find((x) => x.endsWith("-error"));
        return id ? (document.getElementById(id)?.textContent ?? null) : null;
      });
    await page.click("[data-testid=save-password]");
    await expect.poll(() => errorOf("currentPassword")).toBe("This Field is Required");
    await page.fill("[data-testid=password-newPassword]", "short");
    await page.locator("[data-testid=password-newPassword]").blur();
    await expect.poll(() => errorOf("newPassword")).toBe("Must Be At Least 8 Characters");
    await expect(page.locator("[data-testid=password-strength]").getAttribute("data-score")).resolves.toBe(
      "0",
    );
    await page.fill("[data-testid=password-newPassword]", "Tr0ub4dor&3x");
    await page.fill("[data-testid=password-confirmPassword]", "Tr0ub4dor&3y");
    await page.locator("[data-testid=password-confirmPassword]").blur();
    await expect.poll(() => errorOf("confirmPassword")).toBe("passwords must match");
    expect(
      Number(await page.locator("[data-testid=password-strength]").getAttribute("data-score")),
    ).toBeGreaterThan(50);
    await screenshot(page, "shell-14-password-rules");

    await page.fill("[data-testid=password-currentPassword]", "wrong-current");
    await page.fill("[data-testid=password-confirmPassword]", "Tr0ub4dor&3x");
    await page.click("[data-testid=save-password]");
    await expect.poll(() => errorOf("currentPassword")).toBe("Invalid current password");
    await page.fill("[data-testid=password-currentPassword]", ADMIN.password);
    await page.click("[data-testid=save-password]");
    await page.locator("[data-toast=info]", { hasText: "Password updated" }).waitFor();
    await app.larder.auth.setPassword(app.admin.id, ADMIN.password); // later journeys log in again
    await screenshot(page, "shell-15-password-changed");
  });

  it("shows 'page not found' with a home button, and moves old /group paths to /household", async () => {
    const page = await open();
    await signIn(page);
    const res = await page.goto("/no/such/page");
    expect(res?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("page not found");
    await expect(page.locator("[data-testid=home-button]").count()).resolves.toBe(1);
    await screenshot(page, "shell-16-not-found");
    await page.goto("/group/members");
    expect(new URL(page.url()).pathname).toBe("/household/members");
    await page.goto("/group/mealplan/planner/view?day=1");
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(
      "/household/mealplan/planner/view?day=1",
    );
  });

  it("had no uncaught page errors or hydration errors", () => {
    expect(errors).toEqual([]);
  });
});
