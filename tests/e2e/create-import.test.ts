/**
 * Bringing recipes in, in Chromium: a new folder's empty home offers the ways in; the URL screen's scrape
 * test shows a page's recipe without saving it and "include tags" keeps its keywords; bulk URLs from a
 * loopback "site" each show a live status (one held back until the test saw it importing); a recipe zip;
 * and a Nextcloud Cookbook export through "Import from another app", with its report.
 * Screenshots: test-results/screenshots/create-*.png.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
import { makeZip } from "../support/zip-writer.js";

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** A page carrying one schema.org recipe as JSON-LD. */
function recipePage(name: string, keywords: string): string {
  const recipe = {
    "@context": "https://schema.org",
    "@type": "Recipe",
    name,
    keywords,
    recipeIngredient: ["200 g rice", "1 lemon", "2 tbsp butter"],
    recipeInstructions: [
      { "@type": "HowToStep", text: "Cook the rice." },
      { "@type": "HowToStep", text: "Stir in the rest." },
    ],
  };
  return `<!doctype html><html><head><title>${name}</title><script type="application/ld+json">${JSON.stringify(recipe)}</script></head><body><h1>${name}</h1></body></html>`;
}

describeBrowser("create and import", () => {
  let app: App;
  let browser: Browser;
  let page: Page;
  let site: Server;
  let siteUrl = "";
  let releaseSlow: () => void = () => undefined;
  const slowReleased = new Promise<void>((r) => (releaseSlow = r));
  const errors: string[] = [];
  const base = () => `/g/${app.groupSlug}`;
  const names = () =>
    app.larder.recipes.lister.list(app.adminActor, { perPage: -1 }).items.map((r) => r.name);

  beforeAll(async () => {
    site = createServer((req, res) => {
      const send = (html: string) => res.writeHead(200, { "Content-Type": "text/html" }).end(html);
      if (req.url === "/lemon-rice.html") return send(recipePage("Lemon Rice", "rice, lemon, quick"));
      if (req.url === "/tomato-soup.html") return send(recipePage("Tomato Soup", "soup"));
      if (req.url === "/no-recipe.html")
        return send("<!doctype html><title>Hello</title><p>Nothing to cook.</p>");
      // Held until the test has seen its row say "importing".
      if (req.url === "/slow-stew.html")
        return void slowReleased.then(() => send(recipePage("Slow Stew", "stew")));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    app = await startApp({ config: { fetchAllow: "127.0.0.1" } });
    browser = await launchBrowser();
    page = await newPage(browser, app, { errors });
    await signIn(page);
  }, 120_000);

  afterAll(async () => {
    releaseSlow();
    await browser?.close();
    await app?.close();
    await new Promise((r) => site?.close(r));
  });

  it("offers the ways in on a new folder's empty home", async () => {
    await page.goto(base());
    await hydrated(page);
    await page.getByText("No recipes yet.").waitFor();
    const actions = page.getByTestId("empty-actions").getByRole("link");
    await expect(
      actions.evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname)),
    ).resolves.toEqual([
      `${base()}/r/create/url`,
      `${base()}/r/create/new`,
      `${base()}/r/create/zip`,
      `${base()}/data/migrations`,
    ]);
    await screenshot(page, "create-empty-home");
  });

  it("tests a page without saving anything, then imports it with its keywords as tags", async () => {
    await page.goto(`${base()}/r/create/url`);
    await hydrated(page);
    await page.getByTestId("import-url").fill(`${siteUrl}/lemon-rice.html`);
    await page.getByTestId("import-test").click();
    await page.getByTestId("scrape-preview").waitFor();
    await expect(page.getByTestId("scrape-preview-name").textContent()).resolves.toBe("Lemon Rice");
    await expect(page.getByTestId("scrape-preview").textContent()).resolves.toContain(
      "3 ingredients, 2 steps",
    );
    await screenshot(page, "create-test-scrape");
    expect(names()).toEqual([]);

    await page.getByTestId("import-tags").check();
    await page.getByTestId("import-submit").click();
    await page.waitForURL(/\/r\/lemon-rice\?edit=true$/);
    const tags = app.larder.recipes.get(app.adminActor, "lemon-rice").tags.map((t) => t.name.toLowerCase());
    expect(tags.sort()).toEqual(["lemon", "quick", "rice"]);
  });

  it("tests a pasted recipe's JSON without a URL, saving nothing", async () => {
    await page.goto(`${base()}/r/create/url`);
    await hydrated(page);
    await page.getByTestId("import-data").fill(
      JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Recipe",
        name: "Pasted Dal",
        recipeIngredient: ["1 cup red lentils", "1 onion"],
        recipeInstructions: [{ "@type": "HowToStep", text: "Simmer." }],
      }),
    );
    const before = names().length;
    await page.getByTestId("import-test").click();
    await page.getByTestId("scrape-preview").waitFor();
    await expect(page.getByTestId("scrape-preview-name").textContent()).resolves.toBe("Pasted Dal");
    expect(await page.getByTestId("import-error").count()).toBe(0);
    expect(names().length).toBe(before);
  });

  it("imports several URLs, each with a live status", async () => {
    await page.goto(`${base()}/r/create/url`);
    await hydrated(page);
    await page
      .getByTestId("bulk-urls")
      .fill(
        [`${siteUrl}/slow-stew.html`, `${siteUrl}/tomato-soup.html`, `${siteUrl}/no-recipe.html`].join("\n"),
      );
    await page.getByTestId("bulk-submit").click();
    const rows = page.getByTestId("bulk-row");
    const states = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-state")));
    // Two at a time: the slow page is still importing while the others have finished.
    await eventually(states).toEqual(["importing", "done", "failed"]);
    await expect(rows.nth(2).textContent()).resolves.toContain("No recipe was found on that page");
    await screenshot(page, "create-bulk-live");
    releaseSlow();
    await eventually(states).toEqual(["done", "done", "failed"]);
    await expect(page.getByTestId("bulk-summary").textContent()).resolves.toBe("2 imported, 1 failed, of 3");
    await expect(rows.nth(0).getByRole("link").textContent()).resolves.toBe("Slow Stew");
    expect(names()).toEqual(expect.arrayContaining(["Slow Stew", "Tomato Soup"]));
    await screenshot(page, "create-bulk-done");
  });

  it("imports a recipe zip and opens it for editing", async () => {
    const zip = makeZip([
      {
        name: "zip-pie.json",
        data: JSON.stringify({
          name: "Zip Pie",
          recipe_ingredient: [{ note: "1 pie crust" }, { note: "4 apples" }],
          recipe_instructions: [{ text: "Fill the crust and bake." }],
        }),
      },
    ]);
    await page.goto(`${base()}/r/create/zip`);
    await hydrated(page);
    await page.setInputFiles("[data-testid=zip-file]", {
      name: "zip-pie.zip",
      mimeType: "application/zip",
      buffer: zip,
    });
    await screenshot(page, "create-zip");
    await page.getByTestId("zip-submit").click();
    await page.waitForURL(/\/r\/zip-pie\?edit=true$/);
    expect(app.larder.recipes.get(app.adminActor, "zip-pie").recipeIngredient).toHaveLength(2);
  });

  it("migrates a Nextcloud Cookbook export and shows the report", async () => {
    const archive = makeZip([
      {
        name: "Lemon Cake/recipe.json",
        data: JSON.stringify({
          id: 7,
          name: "Lemon Cake",
          recipeIngredient: ["200 g flour", "2 eggs", "1 lemon"],
          recipeInstructions: ["Mix.", "Bake for 40 minutes."],
          keywords: "cake,lemon",
        }),
      },
      { name: "Broken/recipe.json", data: "{ not json" },
      {
        name: "Plum Jam/recipe.json",
        data: JSON.stringify({ id: 8, name: "Plum Jam", recipeIngredient: ["1 kg plums"] }),
      },
      // A picture that claims fewer bytes than it holds: the recipe comes in without it, and says so.
      { name: "Plum Jam/full.jpg", data: Buffer.alloc(64, 1), declaredSize: 10 },
    ]);
    await page.goto(`${base()}/data/migrations`);
    await hydrated(page);
    await expect(page.getByTestId("migration-type").inputValue()).resolves.toBe("Nextcloud Cookbook");
    // Choosing a Mealie backup says that its people come too; other apps bring recipes only.
    await expect(page.getByTestId("migration-people").count()).resolves.toBe(0);
    await page.getByTestId("migration-type").click();
    await page.getByRole("option", { name: "Mealie backup" }).click();
    await expect(page.getByTestId("migration-people").textContent()).resolves.toMatch(
      /brings its people too/,
    );
    await page.getByTestId("migration-type").click();
    await page.getByRole("option", { name: "Nextcloud Cookbook" }).click();
    await expect.poll(() => page.getByTestId("migration-people").count()).toBe(0);
    await page.setInputFiles("[data-testid=migration-file]", {
      name: "nextcloud.zip",
      mimeType: "application/zip",
      buffer: archive,
    });
    await page.getByTestId("migration-tag").check();
    // Nothing is imported before the person has read what comes from which file, and where it goes.
    const namesBefore = names();
    await page.getByTestId("migration-submit").click();
    const confirm = page.getByTestId("migration-confirm");
    const { group, household } = app.larder.groups.scopeOf(app.adminActor);
    await expect(confirm.textContent()).resolves.toContain(
      `The recipes in “nextcloud.zip” will be imported from Nextcloud Cookbook into the group ` +
        `“${group.doc.data.name}”, household “${household.doc.data.name}”.`,
    );
    // Cancel has the focus, so a stray Enter imports nothing; Escape cancels and gives Import it back.
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    await eventually(focused).toBe("Cancel");
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "hidden" });
    await eventually(focused).toBe("Import");
    expect(names()).toEqual(namesBefore);
    await page.getByTestId("migration-submit").click();
    await confirm.getByRole("button", { name: "Import" }).click();
    await page.getByTestId("migration-report").waitFor();
    // The app by its product name, not the report's "Nextcloud Migration" kept for Mealie's clients.
    await expect(
      page.getByTestId("migration-report").getByRole("heading").first().textContent(),
    ).resolves.toBe("From Nextcloud Cookbook");
    const entries = page.getByTestId("migration-entry");
    await expect(entries.count()).resolves.toBe(3);
    await expect(page.getByTestId("migration-summary").textContent()).resolves.toBe("2 done, 1 failed");
    const warned = page.locator("[data-testid=migration-entry][data-warned=true]");
    await expect(warned.count()).resolves.toBe(1);
    await expect(warned.textContent()).resolves.toMatch(
      /^Done, with a noteImported Plum Jam successfullyits picture/,
    );
    await expect(page.getByTestId("migration-status").textContent()).resolves.toBe("Partly done");
    const cake = app.larder.recipes.get(app.adminActor, "lemon-cake");
    expect(cake.recipeIngredient).toHaveLength(3);
    expect(cake.tags.map((t) => t.name.toLowerCase())).toContain("nextcloud");
    await screenshot(page, "create-migration-report");
    expect(errors).toEqual([]);
  });
});
