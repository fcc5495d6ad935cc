/**
 * Pages with damaged recipe data (fast-check, bounded in runs): JSON-LD Recipe objects whose fields hold
 * values of any type and shape (steps, sections, lists, numbers where text belongs), alone, in arrays or
 * in an `@graph`, with markup around them. The page importer must give a recipe or refuse the page with
 * a 4xx error; through the import service, a page is a recipe or a 4xx, never a 500 (which
 * would also disable the importer until restart).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPage } from "./scrape.js";
import { openScratchLarder, type ScratchLarder } from "../../../core/testing/scratch-larder.js";
import { importers } from "../index.js";
import { FUZZ_RUNS, tally } from "../../../core/testing/fuzz.js";

const anyJson = fc.jsonValue({ maxDepth: 3 });
const STEP_KEYS = ["@type", "text", "name", "itemListElement", "url", "image", "position", "description"];
const step = fc.dictionary(
  fc.constantFrom(...STEP_KEYS),
  fc.oneof(
    anyJson,
    fc.constantFrom("HowToStep", "HowToSection", "HowToTip"),
    fc.array(fc.dictionary(fc.constantFrom(...STEP_KEYS), anyJson), { maxLength: 3 }),
  ),
);
const RECIPE_KEYS = [
  "name",
  "description",
  "recipeIngredient",
  "ingredients",
  "recipeInstructions",
  "recipeYield",
  "totalTime",
  "prepTime",
  "cookTime",
  "performTime",
  "recipeCategory",
  "recipeCuisine",
  "keywords",
  "nutrition",
  "author",
  "aggregateRating",
  "datePublished",
  "tool",
  "suitableForDiet",
  "video",
  "@id",
  "url",
  "mainEntityOfPage",
  "headline",
];
/** No image that would be fetched: an importer hands image URLs to the fetcher, and this is about data. */
const image = fc.oneof(
  fc.constant("photo.jpg"),
  fc.record({ "@type": fc.constant("ImageObject") }),
  fc.integer(),
);
/** Now and then what a real recipe has, so that pages get past "no recipe here" to the rest. */
const likely = fc.record(
  {
    name: fc.oneof(fc.string({ minLength: 1 }), anyJson),
    recipeIngredient: fc.oneof(fc.array(fc.string({ minLength: 1 }), { minLength: 1 }), anyJson),
    recipeInstructions: fc.oneof(fc.array(step, { maxLength: 4 }), fc.string({ minLength: 1 }), anyJson),
  },
  { requiredKeys: [] },
);
const recipe = fc
  .tuple(
    likely,
    fc.dictionary(
      fc.constantFrom(...RECIPE_KEYS),
      fc.oneof(anyJson, fc.string(), fc.array(fc.string()), fc.array(step, { maxLength: 4 }), step),
      { maxKeys: RECIPE_KEYS.length },
    ),
    fc.constantFrom<unknown>(
      "Recipe",
      "Recipe",
      "Recipe",
      ["Recipe", "NewsArticle"],
      "recipe",
      "Thing",
      3,
      null,
    ),
    fc.option(image),
  )
  .map(([base, fields, type, img]) => ({
    ...fields,
    ...base,
    "@type": type,
    ...(img === null ? {} : { image: img }),
  }));
const jsonLd = fc.oneof(
  recipe,
  fc.array(recipe, { maxLength: 2 }),
  recipe.map((r) => ({ "@context": "https://schema.org", "@graph": [{ "@type": "WebPage" }, r] })),
);
const body = fc
  .array(
    fc.constantFrom(
      "<h2>Ingredients</h2>",
      "<h2>Method</h2>",
      "<ul>",
      "</ul>",
      "<li>",
      "</li>",
      '<li itemprop="recipeIngredient">',
      '<div itemscope itemtype="https://schema.org/Recipe">',
      '<span itemprop="name">',
      "</span></div>",
      "<p>",
      "<br>",
    ),
    { maxLength: 24 },
  )
  .chain((parts) => fc.string({ maxLength: 40 }).map((t) => parts.join(t)));
const page = fc
  .tuple(jsonLd, body, fc.boolean())
  .map(
    ([ld, html, broken]) =>
      `<html><head><title>Soup</title><script type="application/ld+json">${
        broken ? JSON.stringify(ld).slice(0, -3) : JSON.stringify(ld)
      }</script></head><body>${html}</body></html>`,
  );

describe("the page importer on generated damaged recipe data", () => {
  it("gives a recipe with a name and lists, or refuses the page with a reason", async () => {
    const { fivexx } = await tally(
      page,
      async (html) => {
        const [{ recipe: r }] = await importPage({ type: "html", html }, {} as never);
        if (
          typeof r.name !== "string" ||
          !Array.isArray(r.recipeIngredient) ||
          !Array.isArray(r.recipeInstructions)
        )
          throw new Error(`an odd recipe: ${JSON.stringify(r).slice(0, 200)}`);
      },
      FUZZ_RUNS * 2,
    );
    expect(fivexx.slice(0, 5)).toEqual([]);
  }, 60_000);
});

describe("the import service on generated damaged pages", () => {
  let env: ScratchLarder;
  beforeAll(async () => {
    env = await openScratchLarder("import-fuzz", {}, { plugins: importers });
  });
  afterAll(async () => {
    await env?.close();
  });
  it("creates a recipe or answers a 4xx, and the importer stays enabled", async () => {
    const { done, fivexx } = await tally(page, (html) =>
      env.larder.imports.importOne(env.admin, env.larder.imports.pasted(html)),
    );
    expect(fivexx.slice(0, 5)).toEqual([]);
    // The generated pages are recipes often enough for the writes to be tried, not only the refusals.
    expect(done).toBeGreaterThan(FUZZ_RUNS / 10);
    expect(env.larder.plugins.list().filter((p) => p.state !== "loaded")).toEqual([]);
  }, 120_000);
});
