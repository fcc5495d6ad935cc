/**
 * Household and group settings in Chromium (spec §2, §6): the first day of the week stored, a member's
 * permission changed (and one's own locked), a webhook and a notifier created and tested against a
 * loopback server that records the call, an invitation link, the group's privacy, and a member without
 * the flags sent back to /. Screenshots: test-results/screenshots/household-*.png.
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
import { startRecorder, type Recorder } from "../support/recorder.js";
import type { MailMessage } from "../../core/email/mailer.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

describeBrowser("household settings", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let rec: Recorder;
  const errors: string[] = [];
  const dialog = () => page.getByRole("dialog");
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  const household = () => app.larder.membership.household(app.adminActor);

  async function open(path: string): Promise<void> {
    await page.goto(path);
    await hydrated(page);
  }

  beforeAll(async () => {
    rec = await startRecorder();
    // The loopback receiver is on the private network: the admin allows it, as a real one would.
    app = await startApp({ config: { fetchAllow: "127.0.0.1" } });
    await app.larder.accounts.create(app.adminActor, {
      username: "cook",
      fullName: "Casey Cook",
      email: "cook@example.com",
      password: "cook-password-1",
    });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    await rec?.close();
  });

  it("links the settings from the drawer and stores a new first day of the week", async () => {
    await open(`/g/${app.groupSlug}`);
    await page.getByTestId("nav-settings-household").click();
    await page.waitForURL((u) => u.pathname === "/household");
    await hydrated(page);
    expect(household().preferences.firstDayOfWeek).toBe(0);
    await page.getByTestId("pref-firstDayOfWeek").click();
    await page.getByRole("option", { name: "Monday", exact: true }).click();
    await page.getByTestId("pref-lockRecipeEditsFromOtherHouseholds").uncheck();
    await page.getByTestId("save-preferences").click();
    await eventually(() => household().preferences.firstDayOfWeek).toBe(1);
    expect(household().preferences.lockRecipeEditsFromOtherHouseholds).toBe(false);
    // A fresh load shows what was stored.
    await open("/household");
    expect(await page.getByTestId("pref-firstDayOfWeek").inputValue()).toBe("Monday");
    await screenshot(page, "household-preferences");
  });

  it("keeps a preference another member changed while the page was open", async () => {
    await open("/household");
    const before = household().preferences;
    // Switched from another phone meanwhile.
    await app.larder.membership.updateHouseholdPreferences(app.adminActor, {
      recipeShowNutrition: !before.recipeShowNutrition,
    });
    await page.getByTestId("pref-recipeLandscapeView").setChecked(!before.recipeLandscapeView);
    await page.getByTestId("save-preferences").click();
    await eventually(() => household().preferences.recipeLandscapeView).toBe(!before.recipeLandscapeView);
    expect(household().preferences).toMatchObject({
      recipeShowNutrition: !before.recipeShowNutrition,
      firstDayOfWeek: before.firstDayOfWeek,
    });
    // The page now shows both changes.
    await eventually(() => page.getByTestId("pref-recipeShowNutrition").isChecked()).toBe(
      !before.recipeShowNutrition,
    );
  });

  it("changes a member's permission, and leaves one's own locked", async () => {
    const cook = app.larder.users.all().find((u) => u.username === "cook")!;
    expect(cook.canOrganize).toBe(false);
    await open("/household/members");
    const row = page.getByTestId("member-row-cook");
    await row.getByTestId("perm-canOrganize").check();
    await eventually(() => app.larder.users.byId(cook.id)?.canOrganize).toBe(true);
    expect(app.larder.users.byId(cook.id)).toMatchObject({ canManage: false, canInvite: false });
    expect(await page.getByTestId("member-row-admin").getByTestId("perm-canManage").isDisabled()).toBe(true);
    await screenshot(page, "household-members");
  });

  it("creates an invitation link to share", async () => {
    await open("/household/members");
    await page.getByTestId("invite-create").click();
    const link = await page.getByTestId("invite-link").textContent();
    expect(link).toMatch(/\/register\?token=/);
    const token = new URL(link!).searchParams.get("token")!;
    expect(app.larder.registration.listInvitations(app.adminActor).map((i) => i.token)).toContain(token);
    expect(await page.getByText("E-mail is not configured on this server").count()).toBe(1);
  });

  it("sends an invitation by e-mail once e-mail is configured", async () => {
    const sent: MailMessage[] = [];
    app.larder.email.useMailer({ send: async (m) => void sent.push(m) });
    await open("/household/members");
    await page.getByRole("button", { name: "Send by e-mail" }).first().click();
    await dialog().getByLabel("E-mail address").fill("friend@example.com");
    await dialog().getByRole("button", { name: "Send" }).click();
    await eventually(() => sent.length).toBe(1);
    const tokens = app.larder.registration.listInvitations(app.adminActor).map((i) => i.token);
    expect(JSON.stringify(sent[0])).toContain("friend@example.com");
    expect(tokens.some((tok) => JSON.stringify(sent[0]).includes(tok))).toBe(true);
    await eventually(() => toast("success").textContent()).toBe("Invitation sent");
    app.larder.email.useMailer(null);
  });

  it("creates a webhook and its test reaches the receiver", async () => {
    await open("/household/webhooks");
    await page.getByTestId("create-open").click();
    await page.getByTestId("webhook-name").fill("Kitchen display");
    await page.getByTestId("webhook-url").fill(`${rec.url}/hook`);
    await page.getByTestId("webhook-time").fill("07:30");
    await dialog().getByRole("button", { name: "Create" }).click();
    await eventually(() =>
      app.larder.webhooks.all(app.adminActor).map((w) => [w.name, w.scheduledTime]),
    ).toEqual([["Kitchen display", "07:30:00"]]);
    const before = rec.requests.length;
    await page.getByTestId("webhook-row-Kitchen display").getByTestId("row-test").click();
    const call = await rec.next(before);
    expect(call.method).toBe("POST");
    expect(call.path).toBe("/hook");
    expect(JSON.parse(call.body)).toHaveProperty("documentData");
    await eventually(() => toast("success").textContent()).toBe("Test sent: the webhook answered");
    await screenshot(page, "household-webhooks");
  });

  it("creates a notifier and its test message reaches the receiver", async () => {
    await open("/household/notifiers");
    await page.getByTestId("create-open").click();
    await page.getByTestId("notifier-name").fill("Loopback JSON");
    await page.getByTestId("notifier-url").fill(`json://127.0.0.1:${rec.port}/notify`);
    await page.getByTestId("event-recipeDeleted").check();
    await dialog().getByRole("button", { name: "Create" }).click();
    // The action creates the notifier, then sets its events: wait for both, not for the name alone.
    await eventually(() =>
      app.larder.notifiers
        .list(app.adminActor, {})
        .items.map((n) => [n.name, n.options.testMessage, n.options.recipeDeleted, n.options.recipeUpdated]),
    ).toEqual([["Loopback JSON", true, true, false]]);
    const before = rec.requests.length;
    await page.getByTestId("notifier-row-Loopback JSON").getByTestId("row-test").click();
    const call = await rec.next(before);
    expect(call.path).toBe("/notify");
    expect(call.body).toContain("This is a test event.");
    await eventually(() => toast("success").textContent()).toBe("Test message sent");
    await screenshot(page, "household-notifiers");
  });

  it("makes the group public from the group settings", async () => {
    await open("/group");
    await page.getByTestId("group-private").uncheck();
    await page.getByTestId("save-group").click();
    await eventually(() => app.larder.membership.group(app.adminActor).preferences.privateGroup).toBe(false);
    await screenshot(page, "household-group");
  });

  it("sends a member who may not manage back to /, and shows them no settings link", async () => {
    const other = await newPage(browser, app, { errors });
    await signIn(other, "cook", "cook-password-1");
    for (const path of ["/household", "/household/members", "/household/webhooks", "/group"]) {
      await other.goto(path);
      await other.waitForURL((u) => u.pathname !== path);
    }
    await hydrated(other);
    expect(await other.getByTestId("nav-settings-household").count()).toBe(0);
    expect(await other.getByTestId("nav-settings-group").count()).toBe(0);
    // They were given canOrganize above: data management is theirs.
    expect(await other.getByTestId("nav-settings-data").count()).toBe(1);
    await screenshot(other, "household-refused");
    await other.context().close();
  });

  it("reads right to left in Hebrew, and fits a phone", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, errors });
    await phone.context().addCookies([{ name: "lang", value: "he-IL", url: app.url }]);
    await signIn(phone);
    await phone.goto("/household/notifiers");
    await hydrated(phone);
    expect(await phone.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await phone.getByRole("heading", { level: 1 }).textContent()).toBe("התראות");
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone, "household-notifiers-he-phone");
    await phone.context().close();
  });

  it("shows every settings section's tab on a phone's screen, none scrolled out of sight", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, errors });
    await signIn(phone);
    for (const path of ["/household", "/group/data/foods"]) {
      await phone.goto(path);
      await hydrated(phone);
      const tabs = await phone.locator(".settings__tab").evaluateAll((as) =>
        as.map((a) => {
          const r = a.getBoundingClientRect();
          return r.left >= 0 && r.right <= window.innerWidth ? "" : (a.textContent ?? "?");
        }),
      );
      expect(tabs.length, path).toBeGreaterThanOrEqual(4);
      expect(tabs.filter(Boolean), path).toEqual([]);
    }
    await phone.context().close();
  });

  it("showed no page errors", () => {
    expect(errors).toEqual([]);
  });
});
