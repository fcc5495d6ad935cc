/**
 * The recipe timeline in Chromium: the group's timeline page (an event added with a photo, the type
 * filter and the order kept as browser preferences, edit, delete, checked through the API) and the
 * recipe page's timeline dialog. Screenshots: test-results/screenshots/timeline-*.png.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import sharp from "sharp";
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

describeBrowser("timeline", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let photo: Buffer;
  const errors: string[] = [];
  const toast = (type: string) => page.locator(`[data-toast=${type}]`).last();
  const subjects = () => page.getByTestId("timeline-event-subject").allTextContents();
  const path = () => `/g/${app.groupSlug}/recipes/timeline`;

  beforeAll(async () => {
    app = await startApp();
    // Created through core, so each has its "Recipe Created" system event.
    await app.larder.recipes.create(app.adminActor, { name: "Chili con carne" });
    await app.larder.recipes.create(app.adminActor, { name: "Apple pie" });
    photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#c0392b" } })
      .jpeg()
      .toBuffer();
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
  });

  it("lists the group's events, linked from the drawer", async () => {
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.getByTestId("nav-timeline").click();
    await page.waitForURL((u) => u.pathname === path());
    await hydrated(page);
    await eventually(() => subjects()).toEqual(["Recipe Created", "Recipe Created"]);
  });

  it("adds an event with a photo", async () => {
    await page.getByTestId("timeline-add").click();
    const dialog = page.getByTestId("timeline-dialog");
    // Subject and recipe are required.
    await dialog.getByRole("button", { name: "Add event" }).click();
    await eventually(() => dialog.getByText("Choose a recipe").count()).toBe(1);
    await dialog.getByTestId("recipe-picker").fill("chili");
    await page.getByRole("option", { name: "Chili con carne" }).click();
    await dialog.getByTestId("timeline-subject").fill("Made it for Sunday lunch");
    await dialog.getByTestId("timeline-message").fill("Twice the beans.\nEveryone had seconds.");
    await dialog
      .locator("input[type=file]")
      .setInputFiles({ name: "lunch.jpg", mimeType: "image/jpeg", buffer: photo });
    await dialog.getByRole("button", { name: "Add event" }).click();
    await eventually(() => toast("success").textContent()).toBe("Event added");
    await eventually(() => subjects()).toContain("Made it for Sunday lunch");
    const img = page.getByTestId("timeline-event-photo");
    await img.waitFor();
    await eventually(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    const event = page.getByTestId("timeline-event").filter({ hasText: "Made it for Sunday lunch" });
    await expect(event.getByText("Everyone had seconds.").count()).resolves.toBe(1);
    await expect(event.getByRole("link", { name: "Chili con carne" }).count()).resolves.toBe(1);
  });

  it("orders oldest or newest first, and filters by type; both kept by the browser", async () => {
    // The default order is oldest first (spec §3): the new event comes last.
    expect((await subjects()).at(-1)).toBe("Made it for Sunday lunch");
    await page.getByTestId("timeline-order").getByText("Newest first").click();
    await eventually(async () => (await subjects())[0]).toBe("Made it for Sunday lunch");

    await page.getByTestId("timeline-types").getByLabel("System").uncheck();
    await eventually(() => subjects()).toEqual(["Made it for Sunday lunch"]);
    await page.reload();
    await hydrated(page);
    await eventually(() => subjects()).toEqual(["Made it for Sunday lunch"]);
    expect(await page.getByTestId("timeline-types").getByLabel("System").isChecked()).toBe(false);
    await page.getByTestId("timeline-types").getByLabel("Info").uncheck();
    await eventually(() => page.getByTestId("timeline-empty").textContent()).toBe(
      "No events of the chosen types.",
    );
    await page.getByTestId("timeline-types").getByLabel("Info").check();
    await page.getByTestId("timeline-types").getByLabel("System").check();
    await eventually(async () => (await subjects()).length).toBe(3);
    await screenshot(page, "timeline-page");
  });

  it("edits and deletes an event, as the API then shows", async () => {
    const event = page.getByTestId("timeline-event").filter({ hasText: "Made it for Sunday lunch" });
    await event.getByTestId("timeline-event-menu").click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const dialog = page.getByTestId("timeline-dialog");
    await dialog.getByTestId("timeline-subject").fill("Made it for Sunday dinner");
    await dialog.getByRole("button", { name: "Save" }).click();
    await eventually(() => subjects()).toContain("Made it for Sunday dinner");

    const api = async () =>
      (
        (await (await page.request.get("/api/recipes/timeline/events?perPage=-1")).json()) as {
          items: { subject: string; image: string; eventMessage: string | null }[];
        }
      ).items;
    const mine = (await api()).find((e) => e.subject === "Made it for Sunday dinner");
    expect(mine?.image).toBe("has image");
    expect(mine?.eventMessage).toBe("Twice the beans.\nEveryone had seconds.");

    await page
      .getByTestId("timeline-event")
      .filter({ hasText: "Made it for Sunday dinner" })
      .getByTestId("timeline-event-menu")
      .click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByTestId("timeline-delete-dialog").getByRole("button", { name: "Delete" }).click();
    await eventually(() => subjects()).toEqual(["Recipe Created", "Recipe Created"]);
    expect((await api()).map((e) => e.subject)).toEqual(["Recipe Created", "Recipe Created"]);
  });

  it("shows and adds to one recipe's timeline from the recipe page", async () => {
    await page.goto(`/g/${app.groupSlug}/r/apple-pie`);
    await hydrated(page);
    await page.getByTestId("recipe-timeline-button").click();
    const dialog = page.getByTestId("recipe-timeline-dialog");
    await eventually(() => dialog.getByTestId("timeline-event-subject").allTextContents()).toEqual([
      "Recipe Created",
    ]);
    await dialog.getByTestId("timeline-add").click();
    const add = page.getByTestId("timeline-dialog");
    await add.getByTestId("timeline-subject").fill("Baked for the fair");
    await add
      .locator("input[type=file]")
      .setInputFiles({ name: "pie.jpg", mimeType: "image/jpeg", buffer: photo });
    await add.getByRole("button", { name: "Add event" }).click();
    await eventually(() => dialog.getByTestId("timeline-event-subject").allTextContents()).toContain(
      "Baked for the fair",
    );
    await dialog.getByTestId("timeline-event-photo").waitFor();
    const recipe = app.larder.recipes.get(app.adminActor, "apple-pie");
    const events = app.larder.timeline.list(app.adminActor, {
      queryFilter: `recipeId="${recipe.id}"`,
      perPage: -1,
    }).items;
    expect(events.map((e) => [e.subject, e.image])).toContainEqual(["Baked for the fair", "has image"]);
    await screenshot(page, "timeline-recipe-dialog");
    expect(errors).toEqual([]);
  });

  it("fits a phone without sideways scrolling", async () => {
    const phone = await newPage(browser, app, { viewport: { width: 390, height: 844 }, errors });
    await signIn(phone);
    await phone.goto(path());
    await hydrated(phone);
    await phone.getByTestId("timeline-event").first().waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone, "timeline-phone");
    await phone.context().close();
    expect(errors).toEqual([]);
  });
});
