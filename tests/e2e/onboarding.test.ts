/**
 * Getting in, in Chromium (issue 22): the first-time setup of a fresh server from its first visit,
 * sign-up when the server allows it, accepting an invitation link, and a password reset from the
 * e-mailed link (plus the "forgot password" request). Screenshots: test-results/screenshots/onboarding-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import {
  ADMIN,
  describeBrowser,
  hydrated,
  launchBrowser,
  login,
  newPage,
  screenshot,
  startApp,
  type App,
} from "./support/browser.js";

async function next(page: Page) {
  await page.getByTestId("setup-next").click();
}

describeBrowser("onboarding", () => {
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
  });

  describe("first-time setup", () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp({ firstSetup: true });
    }, 120_000);
    afterAll(async () => {
      await app?.close().catch(() => {});
    });

    it("walks a fresh server's first visitor through account, group, language and data", async () => {
      const page = await newPage(browser, app, { errors });
      await page.goto("/");
      await page.waitForURL(/\/setup$/);
      await hydrated(page);
      await screenshot(page, "onboarding-01-setup-start");

      // The account step checks its fields before moving on.
      await next(page);
      await page.getByText("This Field is Required").first().waitFor();
      await page.fill("#fullName", "Ada Admin");
      await page.fill("#username", "ada");
      await page.fill("#email", "ada@example.com");
      await page.fill("#new-password", "Ada-Strong-Password-1");
      await page.fill("#confirm-password", "Ada-Strong-Password-2");
      await next(page);
      await page.getByText("passwords must match").waitFor();
      await page.fill("#confirm-password", "Ada-Strong-Password-1");
      await next(page);

      await page.getByTestId("setup-step-group").waitFor();
      await page.fill("#group", "Lovelace Kitchen");
      await page.fill("#household", "Main House");
      await next(page);

      await page.getByTestId("setup-step-language").waitFor();
      await page.locator("#locale").click();
      await page.getByRole("option", { name: "Deutsch (German)" }).click();
      await next(page);

      await page.getByTestId("setup-step-review").waitFor();
      await expect(page.getByTestId("setup-step-review").textContent()).resolves.toContain(
        "Lovelace Kitchen",
      );
      await page.getByTestId("setup-finish").click();
      await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
      await hydrated(page);
      // Signed in as the new account, in the chosen language.
      await expect(page.getByTestId("drawer-user-name").textContent()).resolves.toBe("Ada Admin");
      await expect(page.locator("html").getAttribute("lang")).resolves.toBe("de-DE");
      await screenshot(page, "onboarding-02-setup-done");

      const larder = app.larder;
      const ada = larder.users.all().find((u) => u.username === "ada");
      expect(ada).toMatchObject({ email: "ada@example.com", fullName: "Ada Admin", admin: true });
      expect(larder.groups.byId(ada?.groupId ?? "")?.doc.data.name).toBe("Lovelace Kitchen");
      expect(larder.groups.household(ada?.groupId ?? "", ada?.householdId ?? "")?.doc.data.name).toBe(
        "Main House",
      );
      expect(await larder.auth.isFirstLogin()).toBe(false);
      // The old default login is gone, and the setup never opens again.
      await expect(larder.auth.login(ADMIN.username, ADMIN.password)).rejects.toThrow();
      const later = await newPage(browser, app, { errors });
      await later.goto("/setup");
      await later.waitForURL(/\/login$/);
      await expect(later.getByTestId("setup-notice").count()).resolves.toBe(0);
      await later.context().close();
      await page.context().close();
    });
  });

  describe("sign-up, invitations and password resets", () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp({ config: { allowSignup: true } });
    }, 120_000);
    afterAll(async () => {
      await app?.close().catch(() => {});
    });

    it("signs a visitor up with a group of their own", async () => {
      const page = await newPage(browser, app, { errors });
      await page.goto("/login");
      await hydrated(page);
      await page.getByTestId("signup-link").click();
      await page.waitForURL(/\/register$/);
      await hydrated(page);
      await page.fill("#fullName", "Sam Signup");
      await page.fill("#username", "sam");
      await page.fill("#email", "admin@example.com");
      await page.fill("#new-password", "Sam-Password-1");
      await page.fill("#confirm-password", "Sam-Password-1");
      await page.fill("#group", "Sam's Snacks");
      await page.getByTestId("register-submit").click();
      await page.waitForURL(/\/g\/[a-z0-9-]+$/);
      await hydrated(page);
      await expect(page.getByTestId("drawer-user-name").textContent()).resolves.toBe("Sam Signup");
      await screenshot(page, "onboarding-03-signed-up");
      const sam = app.larder.users.all().find((u) => u.username === "sam");
      expect(app.larder.groups.byId(sam?.groupId ?? "")?.doc.data.name).toBe("Sam's Snacks");
      await page.context().close();
    });

    it("says so when a username is taken", async () => {
      const page = await newPage(browser, app, { errors });
      await page.goto("/register");
      await hydrated(page);
      await page.fill("#fullName", "Another Sam");
      await page.fill("#username", "sam");
      await page.fill("#email", "another@example.com");
      await page.fill("#new-password", "Sam-Password-1");
      await page.fill("#confirm-password", "Sam-Password-1");
      await page.fill("#group", "Other Group");
      await page.getByTestId("register-submit").click();
      await page.getByText("username is taken").waitFor();
      await page.context().close();
    });

    it("accepts an invitation link into the inviting household", async () => {
      const invite = await app.larder.registration.createInvitation(app.adminActor, { uses: 1 });
      const page = await newPage(browser, app, { errors });
      await page.goto(`/register?token=${encodeURIComponent(invite.token)}`);
      await hydrated(page);
      const household = app.larder.groups.household(app.admin.groupId, app.admin.householdId);
      await expect(page.getByTestId("invitation").textContent()).resolves.toContain(
        household?.doc.data.name ?? "?",
      );
      await expect(page.locator("#group").count()).resolves.toBe(0);
      await page.fill("#fullName", "Ivy Invited");
      await page.fill("#username", "ivy");
      await page.fill("#email", "ivy@example.com");
      await page.fill("#new-password", "Ivy-Password-1");
      await page.fill("#confirm-password", "Ivy-Password-1");
      await screenshot(page, "onboarding-04-invitation");
      await page.getByTestId("register-submit").click();
      await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));
      const ivy = app.larder.users.all().find((u) => u.username === "ivy");
      expect(ivy).toMatchObject({ householdId: app.admin.householdId, canInvite: false });
      await page.context().close();

      // A used-up link says it is not valid any more.
      const again = await newPage(browser, app, { errors });
      await again.goto(`/register?token=${encodeURIComponent(invite.token)}`);
      await again.getByTestId("register-closed").waitFor();
      await again.context().close();
    });

    it("resets a password from the e-mailed link, and takes 'forgot password' requests", async () => {
      const page = await newPage(browser, app, { errors });
      await page.goto("/login");
      await hydrated(page);
      await page.getByTestId("forgot-password").click();
      await page.waitForURL(/\/forgot-password$/);
      await page.fill("#email", "nobody@example.com");
      await page.click("button[type=submit]");
      await page.getByTestId("forgot-sent").waitFor();

      const token = await app.larder.accounts.resetTokenFor(app.adminActor, "ivy@example.com");
      await page.goto(`/reset-password/?token=${encodeURIComponent(token)}`);
      await hydrated(page);
      await page.fill("#new-password", "Ivy-New-Password-2");
      await page.fill("#confirm-password", "Ivy-New-Password-2");
      await page.getByTestId("reset-submit").click();
      await page.waitForURL(/\/login\?reset=1$/);
      await page.getByTestId("login-notice").waitFor();
      await screenshot(page, "onboarding-05-password-reset");
      await login(page, "ivy", "Ivy-New-Password-2");
      await page.waitForURL(new RegExp(`/g/${app.groupSlug}$`));

      // The link worked once.
      const reused = await newPage(browser, app, { errors });
      await reused.goto(`/reset-password?token=${encodeURIComponent(token)}`);
      await hydrated(reused);
      await reused.fill("#new-password", "Ivy-Third-Password-3");
      await reused.fill("#confirm-password", "Ivy-Third-Password-3");
      await reused.getByTestId("reset-submit").click();
      await expect(reused.getByTestId("reset-error").textContent()).resolves.toContain(
        "This reset link is not valid any more",
      );
      await reused.context().close();
      await page.context().close();
    });
  });

  it("ran without page errors", () => {
    expect(errors).toEqual([]);
  });
});
