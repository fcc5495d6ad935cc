/**
 * The admin screens in Chromium (issue 22): the route guard for non-admins, a household and a user
 * created from the admin screens and the new user signing in, the user form's rules, spec §6's group
 * rules, a backup made, downloaded and restored, the site settings, maintenance and debug pages, a
 * phone-sized users page, and demo mode (banner, refused delete, through the UI and the API).
 * Screenshots: test-results/screenshots/admin-*.png.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { unopenableBackup } from "../support/unopenable-backup.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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

/** Playwright-style waiting for vitest assertions (expect.poll defaults to 1 s, short for a browser). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const MEMBER = { username: "pat", password: "Pat-Password-1" };

async function addMember(app: App, username: string, password: string) {
  const user = await app.larder.accounts.create(app.adminActor, {
    username,
    fullName: username.toUpperCase(),
    email: `${username}@example.com`,
    password,
    admin: false,
    advanced: false,
    canInvite: false,
    canManage: false,
    canManageHousehold: false,
    canOrganize: false,
  });
  return user;
}

/** Pick an option of a Mantine Select by its label. */
async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describeBrowser("admin screens", () => {
  let app: App;
  let browser: Browser;
  const errors: string[] = [];
  const toast = (page: Page, type: string) => page.locator(`[data-toast=${type}]`).last();

  beforeAll(async () => {
    app = await startApp();
    await addMember(app, MEMBER.username, MEMBER.password);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  const adminPage = async (opts: Parameters<typeof newPage>[2] = {}) => {
    const page = await newPage(browser, app, { errors, ...opts });
    await signIn(page);
    return page;
  };

  it("sends a non-admin who opens /admin/* to / and logs a warning", async () => {
    const warn = vi.spyOn(app.larder.log, "warn");
    const page = await newPage(browser, app, { errors });
    await signIn(page, MEMBER.username, MEMBER.password);
    for (const path of ["/admin/site-settings", "/admin/manage/users", "/admin/backups"]) {
      await page.goto(path);
      await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
    }
    expect(warn.mock.calls.some(([m]) => /route guard: \/admin\/manage\/users refused/.test(String(m)))).toBe(
      true,
    );
    warn.mockRestore();
    // The member's drawer has no Settings link; the admin's has.
    await hydrated(page);
    await expect(page.getByTestId("nav-settings").count()).resolves.toBe(0);
    await screenshot(page, "admin-01-member-redirected");
    await page.context().close();

    const admin = await adminPage();
    await hydrated(admin);
    await admin.getByTestId("nav-settings").click();
    await admin.waitForURL(/\/admin\/site-settings$/);
    await admin.getByTestId("admin-drawer").waitFor();
    await admin.context().close();
  });

  it("creates a household and a user in it from the admin screens; the new user signs in", async () => {
    const page = await adminPage();
    await page.goto("/admin/manage/households");
    await hydrated(page);
    await page.getByTestId("household-create").click();
    await page.getByTestId("household-form-name").fill("Cousins");
    await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await page.getByTestId("household-row-Cousins").waitFor();
    await eventually(() => toast(page, "success").textContent()).toBe("Household Cousins created");
    // Editing offers the name only: a household cannot move to another group, so no group to choose.
    await page.getByTestId("household-row-Cousins").getByRole("button", { name: "Edit" }).click();
    await page.getByTestId("household-rename-name").waitFor();
    await expect(page.getByTestId("household-rename-group").count()).resolves.toBe(0);
    await page.keyboard.press("Escape");

    await page.goto("/admin/manage/users");
    await hydrated(page);
    await page.getByTestId("user-create").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("user-form-username").fill("robin");
    await dialog.getByTestId("user-form-fullName").fill("Robin Reed");
    await dialog.getByTestId("user-form-email").fill("robin@example.com");
    await dialog.getByTestId("user-form-password").fill("Robin-Password-1");
    await choose(page, "user-form-household", "Cousins");
    await dialog.getByTestId("user-form-flag-canOrganize").click();
    await dialog.getByRole("button", { name: "Create" }).click();
    const row = page.getByTestId("user-row-robin");
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain("Cousins");
    await screenshot(page, "admin-02-user-created");

    const robin = app.larder.users.all().find((u) => u.username === "robin");
    expect(robin).toMatchObject({ fullName: "Robin Reed", canOrganize: true, admin: false });
    expect(app.larder.groups.householdById(robin?.householdId ?? "")?.household.doc.data.name).toBe(
      "Cousins",
    );

    const robinPage = await newPage(browser, app, { errors });
    await login(robinPage, "robin", "Robin-Password-1");
    await robinPage.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
    await hydrated(robinPage);
    await expect(robinPage.getByTestId("drawer-user-name").textContent()).resolves.toBe("Robin Reed");
    await screenshot(robinPage, "admin-03-new-user-signed-in");
    await robinPage.context().close();
    await page.context().close();
  });

  it("checks the user form as spec §5 says, and the server's uniqueness", async () => {
    const page = await adminPage();
    await page.goto("/admin/manage/users");
    await hydrated(page);
    await page.getByTestId("user-create").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("user-form-username").fill("two words");
    await dialog.getByTestId("user-form-email").fill("not-an-email");
    await dialog.getByTestId("user-form-password").fill("short");
    await dialog.getByRole("button", { name: "Create" }).click();
    // The messages render after the click's event: waited for, then counted.
    await dialog.getByText("No Whitespace Allowed").waitFor();
    await expect(dialog.getByText("No Whitespace Allowed").count()).resolves.toBe(1);
    await expect(dialog.getByText("Email Must Be Valid").count()).resolves.toBe(1);
    await expect(dialog.getByText("Must Be At Least 8 Characters").count()).resolves.toBe(1);
    await expect(dialog.getByText("This Field is Required").count()).resolves.toBe(1);

    await dialog.getByTestId("user-form-username").fill(MEMBER.username);
    await dialog.getByTestId("user-form-fullName").fill("Someone Else");
    await dialog.getByTestId("user-form-email").fill("else@example.com");
    await dialog.getByTestId("user-form-password").fill("Long-Enough-1");
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByText("username is taken").waitFor();
    await screenshot(page, "admin-04-user-form-rules");
    await page.keyboard.press("Escape");

    // Spec §6: the admin's own permissions are read-only.
    await page.getByTestId(`user-menu-${ADMIN.username}`).click();
    await page.getByTestId("user-edit").click();
    const edit = page.getByRole("dialog", { name: `Edit ${ADMIN.username}` });
    await edit.getByTestId("user-form-self-note").waitFor();
    await expect(edit.getByTestId("user-form-flag-admin").isDisabled()).resolves.toBe(true);
    await page.context().close();
  });

  it("refuses deleting a group with users, deletes an empty one, and makes a reset link", async () => {
    const page = await adminPage();
    await page.goto("/admin/manage/groups");
    await hydrated(page);
    const home = app.larder.groups.byId(app.admin.groupId)?.doc.data.name ?? "";
    await page.getByTestId(`group-delete-${home}`).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(() => toast(page, "error").textContent()).toBe("A group with users cannot be deleted");
    await page.keyboard.press("Escape");

    await page.getByTestId("group-create").click();
    await page.getByTestId("group-form-name").fill("Empty Club");
    await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
    await page.getByTestId("group-row-Empty Club").waitFor();
    await page.getByTestId("group-delete-Empty Club").click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(() => page.getByTestId("group-row-Empty Club").count()).toBe(0);
    await screenshot(page, "admin-05-groups");

    await page.goto("/admin/manage/users");
    await hydrated(page);
    await page.getByTestId(`user-menu-${MEMBER.username}`).click();
    await page.getByTestId("user-reset-link").click();
    const link = await page.getByTestId("reset-link").textContent();
    expect(link).toMatch(/\/reset-password\/\?token=[A-Za-z0-9_-]+/);
    await page.context().close();
  });

  it("makes, downloads and restores a backup; the restore signs the admin out", async () => {
    const page = await adminPage();
    await page.goto("/admin/backups");
    await hydrated(page);
    await page.getByTestId("backup-create").click();
    const row = page.getByTestId("backup-row").first();
    await row.waitFor();
    const name = (await row.getAttribute("data-name")) ?? "";
    expect(name).toMatch(/^larder_.*\.zip$/);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByTestId("backup-download").click(),
    ]);
    const saved = await download.path();
    const bytes = await readFile(saved);
    expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
    expect(download.suggestedFilename()).toBe(name);

    // The downloaded file goes back up (a Larder backup is kept under a fresh name).
    await page.locator("input[type=file]").setInputFiles(saved);
    await eventually(() => page.locator("[data-toast=success]").last().textContent()).toBe("Backup uploaded");
    await eventually(() => page.getByTestId("backup-row").count()).toBe(2);

    // A change after the backup, which the restore takes back.
    await app.larder.groupAdmin.createHousehold(app.adminActor, { name: "After Backup" });
    expect(app.larder.groupAdmin.households(app.adminActor).map((h) => h.name)).toContain("After Backup");
    await row.getByTestId("backup-restore").click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.waitForURL(/\/login\?direct=1&restored=1$/);
    await page.getByTestId("login-notice").waitFor();
    await screenshot(page, "admin-06-restored");
    expect(app.larder.groupAdmin.households(app.adminActor).map((h) => h.name)).not.toContain("After Backup");
    // Signed out for real: the admin screens ask for a login again.
    await page.goto("/admin/backups");
    await page.waitForURL(/\/login\?redirectTo=/);
    await page.context().close();
  });

  it("a restore whose data will not open puts the data from before back and says so at the sign-in", async () => {
    const page = await adminPage();
    await app.larder.groupAdmin.createHousehold(app.adminActor, { name: "Kept Through A Failed Restore" });
    const broken = "larder_2001.01.01.00.00.00.zip";
    await writeFile(join(app.dataDir, ".larder", "backups", broken), await unopenableBackup(app.dataDir));
    await page.goto("/admin/backups");
    await hydrated(page);
    await page
      .locator(`[data-testid=backup-row][data-name="${broken}"]`)
      .getByTestId("backup-restore")
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.waitForURL(/\/login\?direct=1&restored=undone$/);
    await expect(page.getByTestId("login-notice").textContent()).resolves.toMatch(
      /could not be restored, so the data from before it is back/,
    );
    expect(app.larder.groupAdmin.households(app.adminActor).map((h) => h.name)).toContain(
      "Kept Through A Failed Restore",
    );
    await page.context().close();
  });

  it("shows site settings, maintenance logs with a line count, and the parser debug page", async () => {
    const page = await adminPage();
    await page.goto("/admin/site-settings");
    await hydrated(page);
    await expect(page.getByTestId("config-check").count()).resolves.toBe(4);
    await expect(page.getByTestId("app-info").textContent()).resolves.toContain("v3.19.2");
    await screenshot(page, "admin-07-site-settings");

    await page.goto("/admin/maintenance?lines=5");
    await hydrated(page);
    await page.getByTestId("maintenance-storage").waitFor();
    await expect(page.getByTestId("log-lines").inputValue()).resolves.toBe("5");
    await page.getByTestId("clean-temp").click();
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click();
    await eventually(() => toast(page, "success").textContent()).toBe("Cleaned");
    await screenshot(page, "admin-08-maintenance");

    await page.goto("/admin/debug/parser");
    await hydrated(page);
    await page.getByTestId("parser-lines").fill("2 cups flour");
    await page.getByTestId("parser-run").click();
    const results = page.getByTestId("parser-results");
    await results.waitFor();
    await expect(results.textContent()).resolves.toContain("flour");
    await screenshot(page, "admin-09-parser");

    // Without OPENAI_* the OpenAI check says what is missing instead of calling anything.
    await page.goto("/admin/debug/openai");
    await hydrated(page);
    await page.getByTestId("openai-run").click();
    await expect(page.getByTestId("openai-result").textContent()).resolves.toContain("OpenAI is not enabled");
    await page.context().close();
  });

  it("fits the users and backups pages and a new API token on a phone (390×844) without horizontal overflow", async () => {
    const page = await adminPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto("/admin/manage/users");
    await hydrated(page);
    await page.getByTestId("users-table").waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "admin-10-users-phone");

    // The backups table (a backup was made above): no wider than the screen, every action on it.
    await page.goto("/admin/backups");
    await hydrated(page);
    await page.getByTestId("backup-row").first().waitFor();
    const wide = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await wide()).toBeLessThanOrEqual(0);
    const del = await page.getByTestId("backup-delete").first().boundingBox();
    expect(del && del.x + del.width).toBeLessThanOrEqual(390);
    await screenshot(page, "admin-11-backups-phone");

    // A new API token, shown once to be copied: it wraps inside the screen, its copy button on it.
    await page.goto("/user/profile");
    await hydrated(page);
    await page.getByTestId("token-name").fill("Phone script");
    await page.getByTestId("create-token").click();
    await page.getByTestId("created-token-value").waitFor();
    expect(await wide()).toBeLessThanOrEqual(0);
    const copy = await page.getByTestId("created-token").getByRole("button").boundingBox();
    expect(copy && copy.x + copy.width).toBeLessThanOrEqual(390);
    await page.context().close();
  });

  it("ran without page errors", () => {
    expect(errors).toEqual([]);
  });
});

describeBrowser("demo mode", () => {
  let app: App;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp({ config: { demo: true } });
    await addMember(app, "visitor", "Visitor-Password-1");
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  describe("in the browser", () => {
    it("shows the sticky banner with the version and refuses deleting a user", async () => {
      const page = await newPage(browser, app);
      await page.goto("/login");
      const banner = page.getByTestId("demo-banner");
      await expect(banner.textContent()).resolves.toContain("v3.19.2");
      await signIn(page);
      await page.goto("/admin/manage/users");
      await hydrated(page);
      await page.getByTestId("user-menu-visitor").click();
      await page.getByTestId("user-delete").click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await eventually(() => page.locator("[data-toast=error]").last().textContent()).toBe(
        "Deleting users is disabled in the demo",
      );
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("user-row-visitor").count()).resolves.toBe(1);
      expect(app.larder.users.all().some((u) => u.username === "visitor")).toBe(true);
      // Still on top once the page scrolls.
      await page.evaluate(() => window.scrollTo(0, 500));
      const top = await banner.evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBe(0);
      await screenshot(page, "admin-11-demo-refused");
      await page.context().close();
    });
  });

  it("leaves a full-screen dialog's Close button on a phone to the dialog, not the banner", async () => {
    const page = await newPage(browser, app, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto("/login");
    await signIn(page);
    await page.goto("/admin/manage/users");
    await hydrated(page);
    await page.getByTestId("user-menu-visitor").click();
    await page.getByTestId("user-delete").click();
    const close = page.getByRole("dialog").getByRole("button", { name: "Close" }).first();
    await close.waitFor();
    const onTop = await close.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return hit !== null && el.contains(hit);
    });
    expect(onTop).toBe(true);
    await close.tap();
    await eventually(() => page.getByRole("dialog").count()).toBe(0);
    await page.context().close();
  });

  it("refuses the same through the API with a 403 and the reason", async () => {
    const token = await app.larder.auth.login(ADMIN.username, ADMIN.password);
    const visitor = app.larder.users.all().find((u) => u.username === "visitor");
    const res = await fetch(`${app.url}/api/admin/users/${visitor?.id}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${token.token}` },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      detail: { message: "Deleting users is disabled in the demo", error: true, exception: null },
    });
  });
});
