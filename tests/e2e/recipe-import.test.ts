/**
 * Importing a recipe in the browser (spec §2 create routes): the Create menu leads to the URL import,
 * a page on a loopback "site" becomes a recipe opened for editing, a page with no recipe says so.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
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

const fixture = (name: string) => readFileSync(new URL(`../fixtures/recipe-pages/${name}`, import.meta.url));

describeBrowser("recipe import (Chromium)", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let site: Server;
  let siteUrl = "";
  const errors: string[] = [];

  beforeAll(async () => {
    site = createServer((req, res) => {
      const name = (req.url ?? "/").slice(1);
      if (name !== "microdata.html" && name !== "no-recipe.html") return void res.writeHead(404).end();
      res.writeHead(200, { "Content-Type": "text/html" }).end(fixture(name));
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    app = await startApp({ config: { fetchAllow: "127.0.0.1" } });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((r) => site?.close(r));
  });

  it("offers the URL import in the Create menu, and no photo import without AI", async () => {
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.click("[data-testid=create-menu]");
    // Within the menu: an empty home also offers the URL import among its own actions.
    const menu = page.getByRole("menu");
    await expect(menu.locator("a[href$='/r/create/url']").count()).resolves.toBe(1);
    await expect(menu.locator("a[href$='/r/create/image']").count()).resolves.toBe(0);
    // A recipe zip and another app's export are found from the menu too.
    await expect(menu.locator("a[href$='/r/create/zip']").count()).resolves.toBe(1);
    await expect(menu.locator("a[href$='/data/migrations']").count()).resolves.toBe(1);
  });

  it("imports a page by URL and opens the new recipe for editing", async () => {
    await page.goto(`/g/${app.groupSlug}/r/create/url`);
    await hydrated(page);
    await page.fill("[data-testid=import-url]", `${siteUrl}/microdata.html`);
    await screenshot(page, "import-url");
    await page.click("[data-testid=import-submit]");
    await page.waitForURL(/\/r\/cheese-scones\?edit=true$/);
    const recipe = app.larder.recipes.get(app.adminActor, "cheese-scones");
    expect(recipe.orgURL).toBe(`${siteUrl}/microdata.html`);
    expect(recipe.recipeIngredient).toHaveLength(3);
  });

  it("says so when the page holds no recipe, keeping what was typed", async () => {
    await page.goto(`/g/${app.groupSlug}/r/create/url`);
    await hydrated(page);
    await page.fill("[data-testid=import-url]", `${siteUrl}/no-recipe.html`);
    await page.click("[data-testid=import-submit]");
    await page.locator("[data-testid=import-error]").waitFor();
    await expect(page.locator("[data-testid=import-error]").textContent()).resolves.toBe(
      "No recipe was found on that page",
    );
    await expect(page.inputValue("[data-testid=import-url]")).resolves.toBe(`${siteUrl}/no-recipe.html`);
    // A page that is not there: the status, in words, not "could not be imported".
    await page.fill("[data-testid=import-url]", `${siteUrl}/gone.html`);
    await page.click("[data-testid=import-submit]");
    await expect
      .poll(() => page.locator("[data-testid=import-error]").textContent(), { timeout: 10_000 })
      .toBe("The page answered 404 instead of the recipe: check the address");
    expect(errors).toEqual([]);
  });
});

describeBrowser("recipe from photos (Chromium)", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let ai: Server;
  let sentImages = 0;

  beforeAll(async () => {
    // A stand-in for an OpenAI-compatible API: counts the photos it is sent, answers one recipe.
    ai = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        sentImages = (body.match(/data:image\/png;base64,/g) ?? []).length;
        const recipe = {
          name: "Photo Pancakes",
          recipeIngredient: ["2 eggs", "200 g flour"],
          recipeInstructions: ["Whisk.", "Fry."],
        };
        res.writeHead(200, { "Content-Type": "application/json" }).end(
          JSON.stringify({
            choices: [{ message: { role: "assistant", content: JSON.stringify(recipe) } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => ai.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(ai.address() as AddressInfo).port}/v1`;
    app = await startApp({ config: { openai: { API_KEY: "sk-test", BASE_URL: base } } });
    browser = await launchBrowser();
    page = await newPage(browser, app);
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((r) => ai?.close(r));
  });

  it("turns an uploaded photo into a recipe", async () => {
    const { default: sharp } = await import("sharp");
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#d35400" } })
      .png()
      .toBuffer();
    await page.goto(`/g/${app.groupSlug}`);
    await hydrated(page);
    await page.click("[data-testid=create-menu]");
    await page.click("a[href$='/r/create/image']");
    await page.waitForURL(/\/r\/create\/image$/);
    await hydrated(page);
    await page.setInputFiles("[data-testid=import-images]", {
      name: "card.png",
      mimeType: "image/png",
      buffer: png,
    });
    await page.click("[data-testid=import-submit]");
    await page.waitForURL(/\/r\/photo-pancakes\?edit=true$/);
    expect(sentImages).toBe(1);
    expect(app.larder.recipes.get(app.adminActor, "photo-pancakes").image).toBeTruthy();
  });
});
