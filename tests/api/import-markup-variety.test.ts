/**
 * Importing recipe pages written the many ways real sites write them (tests/fixtures/markup-variety/):
 * each page is served by a loopback "site", imported through the API as a user does, and the recipe
 * read back. A page that cannot be read is a 400 in Mealie's shape, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import type { AppLoadContext } from "react-router";
import { startTestServer, type TestServer } from "../support/server.js";
import { importUrl } from "../../web/app/lib/imports.server.js";
import { importProblemText } from "../../web/app/lib/import-problem.js";
import type { UserActor } from "../../web/app/lib/session.server.js";

let t: TestServer;
let token: string;
let site: Server;
let siteUrl: string;
let png: Buffer;
const imagesAsked: string[] = [];

/** Pages whose bytes are not UTF-8, and the Content-Type they are served with (null: the page's <meta> says). */
const ENCODED: Record<string, string> = {
  "cp1252-header.html": "text/html; charset=windows-1252",
  "latin1-meta.html": "text/html",
};

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/markup-variety/${name}`, import.meta.url));
const recipesDir = () => join(t.dataDir, "groups", "home", "recipes");
const listing = async () => (await readdir(recipesDir()).catch(() => [] as string[])).sort();

beforeAll(async () => {
  png = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#4a7" } })
    .png()
    .toBuffer();
  site = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.startsWith("/img/")) {
      imagesAsked.push(path);
      return void res.writeHead(200, { "Content-Type": "image/png" }).end(png);
    }
    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status)
      return void res
        .writeHead(Number(status[1]), { "Content-Type": "text/html" })
        .end("<html><head><title>Oops</title><meta property='og:title' content='Oops'></head></html>");
    const name = `${path.slice(1)}.html`;
    if (!/^[\w-]+\.html$/.test(name)) return void res.writeHead(404).end();
    let body: Buffer;
    try {
      body = fixture(name);
    } catch {
      return void res.writeHead(404).end();
    }
    if (name in ENCODED) return void res.writeHead(200, { "Content-Type": ENCODED[name] }).end(body);
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8" })
      .end(body.toString("utf8").replaceAll("{{SITE}}", siteUrl));
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  token = await t.login();
});

afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
  await t?.close();
});

const post = (path: string, json: unknown) => t.api(path, { method: "POST", token, json });

interface Imported {
  name: string;
  description: string;
  orgURL: string;
  image: string | null;
  recipeYield: string | null;
  recipeServings: number;
  totalTime: string | null;
  prepTime: string | null;
  performTime: string | null;
  recipeIngredient: { note: string; title: string | null; originalText: string | null; display: string }[];
  recipeInstructions: { text: string; title: string | null }[];
  tags: { name: string }[];
  recipeCategory: { name: string }[];
  nutrition: Record<string, string | null>;
}

/** Import the page as a user does (tags and categories kept) and read the recipe back. */
async function importPage(page: string): Promise<Imported> {
  const res = await post("/api/recipes/create/url", {
    url: `${siteUrl}/${page}`,
    includeTags: true,
    includeCategories: true,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const slug = (await res.json()) as string;
  return (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Imported;
}

/** The image the importer chose for a page, as the scrape test shows it. */
async function chosenImage(page: string): Promise<string | null> {
  const res = await post("/api/recipes/test-scrape-url", { url: `${siteUrl}/${page}` });
  expect(res.status).toBe(200);
  return ((await res.json()) as { image: string | null }).image;
}

/** Each ingredient line as the page wrote it (the parser splits it into amount, unit and food). */
const notes = (r: Imported) => r.recipeIngredient.map((i) => i.originalText ?? i.display);
const steps = (r: Imported) => r.recipeInstructions.map((s) => s.text);
const stepTitles = (r: Imported) => r.recipeInstructions.map((s) => s.title ?? "");
const names = (xs: { name: string }[]) => xs.map((x) => x.name);

describe("JSON-LD as SEO plugins and themes write it", () => {
  it("resolves a Yoast-style @graph: @id image and author, sections as step titles, times, yields, nutrition, organizers", async () => {
    const r = await importPage("yoast-graph");
    expect(r.name).toBe("Smoky Lentil Stew");
    expect(r.description).toBe("A thick stew of lentils & smoked paprika.");
    expect(r.orgURL).toBe(`${siteUrl}/yoast-graph`);
    expect(notes(r)).toEqual([
      "200 g brown lentils",
      "1 onion, diced",
      "2 tsp smoked paprika",
      "1 l vegetable stock",
    ]);
    expect(steps(r)).toHaveLength(3);
    expect(stepTitles(r)).toEqual(["Base", "", "Simmer"]);
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual(["15 minutes", "1 hour", "1 hour 15 minutes"]);
    expect(r.recipeYield).toBe("4 servings");
    expect(r.recipeServings).toBe(4);
    expect(names(r.tags)).toEqual(["Lentils", "Smoky", "One Pot"]);
    expect(names(r.recipeCategory)).toEqual(["Main Course", "Stew"]);
    expect(r.nutrition).toMatchObject({
      calories: "310",
      proteinContent: "18",
      fatContent: "4.5",
      sodiumContent: "600",
    });
    expect(r.image).toBeTruthy();
    expect(imagesAsked).toContain("/img/stew.png");
  });

  it("reads @type as an array, the widest of several ImageObjects, day-form ISO times and a numeric yield", async () => {
    const r = await importPage("type-array");
    expect(r.name).toBe("Weeknight Citrus Chicken");
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual([
      "20 minutes",
      "1 hour 30 minutes",
      "1 hour 50 minutes",
    ]);
    expect(r.recipeYield).toBe("6 servings");
    expect(names(r.tags)).toEqual(["Chicken", "Citrus", "Weeknight"]);
    expect(names(r.recipeCategory)).toEqual(["Dinner"]);
    expect(await chosenImage("type-array")).toBe(`${siteUrl}/img/large.png`);
    expect(r.image).toBeTruthy();
  });

  it("falls back to the OpenGraph picture when an @id image points into a graph that does not hold it", async () => {
    const r = await importPage("graph-dangling-image");
    expect(r.name).toBe("Black Bean Tacos");
    expect(await chosenImage("graph-dangling-image")).toBe(`${siteUrl}/img/tacos-og.png`);
    expect(r.image).toBeTruthy();
  });

  it("takes the first of several recipes on one page, steps from a string a line each", async () => {
    const r = await importPage("several-recipes");
    expect(r.name).toBe("Herb Yogurt Dip");
    expect(notes(r)).toEqual(["250 g yogurt", "1 bunch dill", "1 clove garlic"]);
    expect(steps(r)).toEqual(["Chop the dill.", "Stir everything together.", "Chill for an hour."]);
    expect(r.recipeYield).toBe("1 bowl");
  });

  it("reads JSON-LD that browsers tolerate: CDATA in a comment, // and /* */ comments, trailing commas, escaped HTML", async () => {
    const r = await importPage("loose-json");
    expect(r.name).toBe("Grandma’s Apple & Cinnamon Cake");
    expect(r.description).toBe("Moist, easy cake.");
    expect(notes(r)).toEqual(["3 apples, peeled & sliced", "150 g sugar", "2 tsp cinnamon"]);
    expect(steps(r)).toEqual(["Heat the oven to 180°C.", "Mix and bake for 45 minutes."]);
    expect(r.totalTime).toBe("1 hour");
    expect(r.recipeYield).toBe("8 slices");
    expect(r.image).toBeTruthy();
  });

  it("reads JSON-LD whose whole text a CMS escaped as HTML", async () => {
    const r = await importPage("escaped-json");
    expect(r.name).toBe("Toasted Seed Granola");
    expect(notes(r)).toEqual(["300 g oats", "100 g mixed seeds", "4 tbsp honey"]);
    expect(steps(r)).toEqual(["Mix everything on a tray.", "Bake at 160 °C until golden, stirring twice."]);
    expect(r.totalTime).toBe("35 minutes");
  });

  it("finds the recipe in a carousel's ItemList, under a ListItem's item", async () => {
    const r = await importPage("itemlist");
    expect(r.name).toBe("Lemon Granita");
    expect(notes(r)).toEqual(["4 lemons", "150 g sugar", "500 ml water"]);
    expect(steps(r)).toHaveLength(2);
    expect(r.totalTime).toBe("4 hours");
  });

  it("reads fields of unexpected types without failing: a name list, nulls and numbers among the lines, value objects", async () => {
    const r = await importPage("odd-types");
    expect(r.name).toBe("Odd Types Soup");
    expect(r.description).toBe("A soup of odd data.");
    expect(notes(r)).toEqual(["1 carrot", "2 potatoes", "1 leek"]);
    expect(steps(r)).toEqual(["Chop everything.", "Keep the peel for stock.", "Simmer for 30 minutes."]);
    expect(r.recipeYield).toBe("4 servings");
    expect(r.nutrition).toMatchObject({ calories: "120" });
    expect(r.image).toBeTruthy();
  });

  it("keeps steps written with their numbers as Mealie does, the first of several image URLs, a category list", async () => {
    const r = await importPage("numbered-strings");
    expect(steps(r)).toEqual([
      "1. Boil the water and let it cool a little.",
      "2. Steep the tea and mint for five minutes.",
      "3. Strain, cool and pour over ice.",
    ]);
    expect(r.recipeYield).toBe("2 glasses");
    expect(names(r.recipeCategory)).toEqual(["Drinks", "Summer"]);
    expect(await chosenImage("numbered-strings")).toBe(`${siteUrl}/img/tea-1x1.png`);
  });

  it("imports a Yoast @graph pasted as JSON, and the same page pasted as HTML", async () => {
    const html = fixture("yoast-graph.html").toString("utf8").replaceAll("{{SITE}}", siteUrl);
    const json = /<script[^>]*>([\s\S]*?)<\/script>/.exec(html)![1];
    for (const data of [json, html]) {
      const res = await post("/api/recipes/create/html-or-json", { data, includeTags: true });
      expect(res.status).toBe(201);
      const slug = (await res.json()) as string;
      const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as Imported;
      // After the URL import of the same page, each gets a free name of its own.
      expect(r.name).toMatch(/^Smoky Lentil Stew( \(\d\))?$/);
      expect(stepTitles(r)).toEqual(["Base", "", "Simmer"]);
      expect(names(r.tags)).toEqual(["Lentils", "Smoky", "One Pot"]);
    }
  });

  it("reads a script typed 'application/ld+json; charset=utf-8'", async () => {
    const r = await importPage("ld-charset");
    expect(r.name).toBe("Quick Miso Soup");
    expect(steps(r)).toHaveLength(2);
    expect(r.totalTime).toBe("10 minutes");
  });

  it("reads the old 'ingredients' property, CRLF-separated steps, a relative image, 'PT0.5H' and '1 hour'", async () => {
    const r = await importPage("instructions-string");
    expect(notes(r)).toEqual(["300 g flour", "180 ml warm water", "1 tsp salt"]);
    expect(steps(r)).toEqual([
      "Mix the flour, water and salt into a dough.",
      "Rest it for 30 minutes.",
      "Roll thin and cook in a dry pan.",
    ]);
    expect([r.prepTime, r.totalTime]).toEqual(["30 minutes", "1 hour"]);
    expect(r.recipeYield).toBe("4 servings");
    expect(names(r.tags)).toEqual(["Bread", "Quick", "Vegan"]);
    expect(await chosenImage("instructions-string")).toBe(`${siteUrl}/img/flatbread.png`);
    expect(r.image).toBeTruthy();
  });

  it("reads seconds and days in ISO times, and a yield range by its upper count", async () => {
    const r = await importPage("times-odd");
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual([
      "12 hours",
      "2 hours 30 minutes",
      "14 hours 30 minutes",
    ]);
    expect(r.recipeYield).toBe("8 servings");
  });

  it("reads JSON-LD in a <noscript>", async () => {
    const r = await importPage("noscript-jsonld");
    expect(r.name).toBe("Roast Squash");
    expect(r.image).toBeTruthy();
  });
});

describe("pages without JSON-LD", () => {
  it("reads microdata: nested HowToSteps, <time datetime>, <meta content>, nutrition item", async () => {
    const r = await importPage("microdata");
    expect(r.name).toBe("Buttermilk Pancakes");
    expect(notes(r)).toEqual(["200 g flour", "300 ml buttermilk", "1 egg"]);
    expect(steps(r)).toEqual([
      "Whisk everything into a smooth batter.",
      "Fry ladlefuls in a hot buttered pan.",
    ]);
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual(["10 minutes", "20 minutes", "30 minutes"]);
    expect(names(r.tags)).toEqual(["Pancakes", "Weekend"]);
    expect(names(r.recipeCategory)).toEqual(["Breakfast"]);
    expect(r.nutrition).toMatchObject({ calories: "280", carbohydrateContent: "40" });
    expect(r.image).toBeTruthy();
  });

  it("reads an AMP page's microdata, its picture an <amp-img>", async () => {
    const r = await importPage("amp");
    expect(r.name).toBe("Charred Corn Salad");
    expect(notes(r)).toEqual(["4 ears of corn", "1 red onion", "1 lime"]);
    expect(steps(r)).toHaveLength(2);
    expect(r.totalTime).toBe("25 minutes");
    expect(r.recipeYield).toBe("4 servings");
    expect(await chosenImage("amp")).toBe(`${siteUrl}/img/corn.png`);
    expect(r.image).toBeTruthy();
  });

  it("reads WP Recipe Maker's card: groups as titles, amount spans as words, times and servings", async () => {
    const r = await importPage("wprm-only");
    expect(r.name).toBe("Garden Pesto Pasta");
    expect(notes(r)).toEqual([
      "60 g basil leaves",
      "40 g pine nuts toasted",
      "½ cup olive oil",
      "300 g spaghetti",
    ]);
    expect(r.recipeIngredient.map((i) => i.title ?? "")).toEqual(["Pesto", "", "", "Pasta"]);
    expect(stepTitles(r)).toEqual(["Make the pesto", "Finish", ""]);
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual(["10 minutes", "12 minutes", "22 minutes"]);
    expect(r.recipeYield).toBe("3 servings");
    expect(await chosenImage("wprm-only")).toBe(`${siteUrl}/img/pesto-500x500.png`);
    expect(r.image).toBeTruthy();
  });

  it("reads Tasty Recipes' card: its own title, groups under their headings, times, yield and picture", async () => {
    const r = await importPage("tasty-only");
    expect(r.name).toBe("Oat Banana Muffins");
    expect(notes(r)).toEqual(["3 ripe bananas", "150 g rolled oats", "2 eggs", "2 tbsp brown sugar"]);
    expect(r.recipeIngredient.map((i) => i.title ?? "")).toEqual(["Batter", "", "", "Topping"]);
    expect(steps(r)).toHaveLength(3);
    expect([r.prepTime, r.performTime, r.totalTime]).toEqual(["15 minutes", "25 minutes", "40 minutes"]);
    expect(r.recipeYield).toBe("12 muffins");
    expect(await chosenImage("tasty-only")).toBe(`${siteUrl}/img/muffins-300x300.png`);
    expect(r.image).toBeTruthy();
  });

  it("reads a script-drawn page's recipe from its <noscript>, its picture from OpenGraph", async () => {
    const r = await importPage("noscript");
    expect(r.name).toBe("Spiced Carrot Soup");
    expect(notes(r)).toEqual(["600 g carrots", "1 onion", "1 tsp ground cumin", "1 l stock"]);
    expect(steps(r)).toHaveLength(3);
    expect(r.image).toBeTruthy();
  });

  it("reads a windows-1252 page declared in the Content-Type header", async () => {
    const r = await importPage("cp1252-header");
    expect(r.name).toBe("Crème brûlée à l’ancienne");
    expect(notes(r)).toEqual(["½ l crème fraîche", "4 jaunes d’œufs", "80 g sucre"]);
    expect(steps(r)[2]).toBe("Cuire au bain-marie à 150 °C.");
  });

  it("reads an ISO-8859-1 page declared only by its <meta http-equiv>", async () => {
    const r = await importPage("latin1-meta");
    expect(r.name).toBe("Käsespätzle");
    expect(notes(r)).toContain("200 g Bergkäse, gerieben");
    expect(steps(r)).toEqual([
      "Die Zwiebeln in Butter goldbraun rösten.",
      "Spätzle und Käse schichten und überbacken.",
    ]);
    expect(r.recipeYield).toBe("4 servings");
  });
});

describe("pages that cannot be read", () => {
  it("answers broken JSON-LD and nothing else with 400 BAD_RECIPE_DATA, writing nothing", async () => {
    const before = await listing();
    const res = await post("/api/recipes/create/url", { url: `${siteUrl}/broken-only` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: { details: "BAD_RECIPE_DATA" } });
    // Mealie's scrape test answers such a page with 200 and a sentence, not an error.
    const scraped = await post("/api/recipes/test-scrape-url", { url: `${siteUrl}/broken-only` });
    expect(scraped.status).toBe(200);
    expect(await scraped.json()).toBe("recipe_scrapers was unable to scrape this URL");
    const pasted = await post("/api/recipes/create/html-or-json", {
      data: fixture("broken-only.html").toString("utf8"),
    });
    expect(pasted.status).toBe(400);
    expect(await listing()).toEqual(before);
  });

  it("answers a page the site refuses or lost with Mealie's 400 BAD_RECIPE_DATA naming its status, writing nothing", async () => {
    const before = await listing();
    for (const code of [403, 404, 410, 500, 503]) {
      const res = await post("/api/recipes/create/url", { url: `${siteUrl}/status/${code}` });
      expect(res.status, String(code)).toBe(400);
      expect(await res.json()).toEqual({
        detail: { details: "BAD_RECIPE_DATA", message: `The remote server answered ${code}` },
      });
    }
    // The streamed import ends with the same status and detail in its `error` event.
    const streamed = await post("/api/recipes/create/url/stream", { url: `${siteUrl}/status/404` });
    const events = await streamed.text();
    expect(events).toMatch(/event: error/);
    expect(events).toContain('"status":400');
    expect(events).toContain('"details":"BAD_RECIPE_DATA"');
    expect(await listing()).toEqual(before);
  });

  it("still tells a person on the import screen which status the page answered", async () => {
    const actor = await t.larder.auth.authenticateToken(token);
    const context = { larder: t.larder } as unknown as AppLoadContext;
    const got = await importUrl(context, actor as UserActor, `${siteUrl}/status/404`, false);
    expect(got).toEqual({ ok: false, error: "pageStatus", message: "404" });
    const said = importProblemText((key, o) => `${key} ${JSON.stringify(o ?? {})}`, "pageStatus", "404");
    expect(said).toBe('import.pageStatus {"status":"404"}');
    // A page that is there but holds no recipe is still "no recipe".
    const none = await importUrl(context, actor as UserActor, `${siteUrl}/broken-only`, false);
    expect(none).toEqual({ ok: false, error: "noRecipe", message: null });
  });
});
