/**
 * Hostile and damaged exports for every format reader, generated (fast-check, bounded in runs): the
 * entries each format looks for, holding random text, random JSON of the right keys with values of any
 * type, random tables. A reader must give an entry per recipe (read, or failed with its reason) or
 * refuse the upload with a `PluginInputError`; any other exception is a bug a user would meet as a 500.
 * A few runs per format then go through the migration service, which must finish every time.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PluginInputError } from "../../../core/plugins/index.js";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { makeZip, type ZipSpec } from "../../../tests/support/zip-writer.js";
import { collect, migrationLarder, scratchFolder } from "../test-support.js";
import { FUZZ_RUNS, FUZZ_SEED, tally } from "../../../core/testing/fuzz.js";

const scratch = scratchFolder("larder-migrate-fuzz-");

/** Any JSON value, kept small. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Keys of the objects inside a recipe: steps, ingredients, photos, keywords, sections. */
const INNER_KEYS = [
  "name",
  "text",
  "instruction",
  "ingredients",
  "food",
  "unit",
  "amount",
  "note",
  "is_header",
  "title",
  "data",
  "filename",
  "@type",
  "itemListElement",
  "quantity",
  "plural_name",
  "no_amount",
  "disable_amount",
];
const inner = fc.dictionary(
  fc.constantFrom(...INNER_KEYS),
  fc.oneof(anyJson, fc.array(fc.dictionary(fc.constantFrom(...INNER_KEYS), anyJson), { maxLength: 3 })),
);
/** An object with some of `keys`, each holding anything, and often a value of a shape readers expect. */
const objectOf = (keys: string[]) =>
  fc.dictionary(
    fc.constantFrom(...keys),
    fc.oneof(anyJson, fc.string(), fc.array(fc.string()), fc.array(inner, { maxLength: 3 }), inner),
    { maxKeys: keys.length },
  );
const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 60 }));
const bytes = fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a));
const jsonText = (keys: string[]) =>
  fc.oneof(
    { arbitrary: objectOf(keys).map((o) => JSON.stringify(o)), weight: 4 },
    { arbitrary: anyJson.map((v) => JSON.stringify(v)), weight: 1 },
    { arbitrary: text, weight: 1 },
  );
/** A table of delimited text: a header of some of `columns`, then rows of random cells. */
const table = (columns: string[], sep: string, rowSep: string) =>
  fc
    .tuple(
      fc.subarray(columns, { minLength: 1 }),
      fc.array(fc.array(text, { maxLength: 8 }), { maxLength: 4 }),
    )
    .map(([head, rows]) => [head.join(sep), ...rows.map((r) => r.join(sep))].join(rowSep));

const RECIPE_KEYS = [
  "name",
  "title",
  "description",
  "recipeIngredient",
  "recipeInstructions",
  "recipeYield",
  "keywords",
  "recipeCategory",
  "prepTime",
  "cookTime",
  "totalTime",
  "image",
  "url",
  "nutrition",
  "tool",
  "dateCreated",
  "id",
  "ingredients",
  "directions",
  "servings",
  "categories",
  "photo_data",
  "photos",
  "uid",
  "rating",
  "notes",
  "nutritional_info",
  "source_url",
  "created",
  "steps",
  "keywords",
  "working_time",
  "waiting_time",
  "servings_text",
  "recipe_ingredient",
  "recipe_instructions",
  "slug",
  "org_url",
  "recipe_category",
  "tags",
  "tools",
  "date_added",
  "extras",
  "orgURL",
];

/** The entries a format reads, with what may be in them. */
const formats: Record<string, fc.Arbitrary<ZipSpec[]>> = {
  nextcloud: fc.tuple(jsonText(RECIPE_KEYS), bytes).map(([json, img]) => [
    { name: "Soup/recipe.json", data: json },
    { name: "Soup/full.jpg", data: img },
  ]),
  paprika: fc
    .tuple(jsonText(RECIPE_KEYS), fc.boolean(), bytes)
    .map(([json, zipped, raw]) => [{ name: "a.paprikarecipe", data: zipped ? gzipSync(json) : raw }]),
  tandoor: fc.tuple(jsonText(RECIPE_KEYS), fc.boolean(), bytes).map(([json, zipped, raw]) => [
    {
      name: "Soup.zip",
      data: zipped
        ? makeZip([
            { name: "recipe.json", data: json },
            { name: "image.png", data: raw },
          ])
        : raw,
    },
  ]),
  chowdown: fc
    .tuple(objectOf(RECIPE_KEYS.concat(["components", "image", "preptime"])), text)
    .map(([front, body]) => [
      { name: "_recipes/soup.md", data: `---\n${JSON.stringify(front)}\n---\n${body}` },
      { name: "_components/part.md", data: `---\n${JSON.stringify(front)}\n---\n` },
      { name: "_recipes/odd.md", data: body },
    ]),
  copymethat: fc
    .array(
      fc.constantFrom(
        '<div class="recipe"><div id="name">',
        '<ul id="recipeIngredients"><li class="recipeIngredient">',
        '<ol id="recipeInstructions"><li class="instruction">',
        '<div class="instruction instruction_subheader">',
        '<img class="recipeImage" src="images/%E0%A4%A.jpg">',
        '<a id="original_link" href="',
        "</li>",
        "</div>",
        "<br>",
        "&amp;",
      ),
      { maxLength: 20 },
    )
    .chain((parts) => text.map((t) => [{ name: "recipes.html", data: parts.join(t) }])),
  mealie_alpha: fc.tuple(jsonText(RECIPE_KEYS), bytes).map(([json, img]) => [
    { name: "recipes/soup/soup.json", data: json },
    { name: "recipes/soup/images/original.webp", data: img },
  ]),
  plantoeat: table(
    ["Title", "Ingredients", "Directions", "Url", "Prep Time", "Servings", "Tags", "Rating", "Created At"],
    ",",
    "\r\n",
  ).map((csv) => [{ name: "plantoeat.csv", data: csv }]),
  myrecipebox: table(
    ["title", "ingredients", "instructions", "quantity", "preparationTime", "source", "video", "nutrition"],
    ",",
    "\n",
  ).map((csv) => [{ name: "recipes.csv", data: csv }]),
  recipekeeper: fc
    .array(
      fc.constantFrom(
        '<div class="recipe-details">',
        '<h2 itemprop="name">',
        '<div itemprop="recipeIngredients">',
        '<div itemprop="recipeDirections">',
        '<img src="images/photo0.jpg">',
        '<meta itemprop="recipeRating" content="',
        "</div>",
        "<p>",
      ),
      { maxLength: 16 },
    )
    .chain((parts) => text.map((t) => [{ name: "recipes.html", data: parts.join(t) }])),
  cooklang: text.map((t) => [{ name: "soup.cook", data: `>> servings: ${t}\n@${t}{${t}%g} ~{${t}}\n${t}` }]),
  cookn: fc
    .tuple(
      table(["ID", "SERVES", "PREPTIME", "COOKTIME", "INSTRUCTIONS"], "||||", "!@#%^&*()"),
      table(["ID", "TITLE", "DESCRIPTION", "PARENT"], "||||", "!@#%^&*()"),
      table(
        ["PARENT_ID", "DISPLAY_ORDER", "AMOUNT_QTY_STRING", "AMOUNT_UNIT", "POST_QUALIFIER"],
        "||||",
        "!@#%^&*()",
      ),
      table(["ID", "ENTITY_ID", "MEDIA_CONTENT_TYPE"], "||||", "!@#%^&*()"),
    )
    .map(([recipes, desc, ingredients, media]) => [
      { name: "temp_recipe.dsv", data: recipes },
      { name: "temp_recipe_desc.dsv", data: desc },
      { name: "temp_ingredient.dsv", data: ingredients },
      { name: "temp_media.dsv", data: media },
    ]),
  mealie_backup: fc
    .dictionary(
      fc.constantFrom(
        "groups",
        "users",
        "recipes",
        "households",
        "recipes_ingredients",
        "recipe_instructions",
        "ingredient_foods",
        "cookbooks",
        "group_meal_plans",
        "shopping_lists",
        "shopping_list_items",
        "users_to_recipes",
        "households_to_recipes",
        "alembic_version",
      ),
      fc.oneof(
        fc.array(
          objectOf([
            "id",
            "name",
            "group_id",
            "household_id",
            "user_id",
            "recipe_id",
            "slug",
            "date",
            "total_time_seconds",
            "food_snapshot",
            "position",
            "note",
            "quantity",
            "shopping_list_id",
            "username",
            "email",
            "version_num",
          ]),
          { maxLength: 3 },
        ),
        anyJson,
      ),
    )
    .map((tables) => [{ name: "database.json", data: JSON.stringify(tables) }]),
};

/** The export as a file: a bare file for the formats that take one, else a zip. */
let uploads = 0;
async function upload(type: string, specs: ZipSpec[]): Promise<string> {
  const name = `${type}-${++uploads}`;
  const bare = (type === "myrecipebox" || type === "cooklang") && specs.length === 1;
  return bare ? scratch.file(name, specs[0].data) : scratch.zip(`${name}.zip`, specs);
}

/** What a reader did with one export: its entries, or the error it threw. */
async function outcome(type: string, specs: ZipSpec[]): Promise<MigratedEntry[] | Error> {
  const path = await upload(type, specs);
  try {
    return await collect(type, path);
  } catch (e) {
    return e as Error;
  }
}

describe("every reader on generated damaged exports", () => {
  for (const [type, exports] of Object.entries(formats)) {
    it(`${type}: an entry per recipe, or the upload refused with a reason; never another exception`, async () => {
      const bugs: string[] = [];
      await fc.assert(
        fc.asyncProperty(exports, async (specs) => {
          const got = await outcome(type, specs);
          if (got instanceof Error) {
            if (!(got instanceof PluginInputError)) bugs.push(`${got.name}: ${got.message}`);
            return;
          }
          for (const e of got) {
            if (typeof e.name !== "string") bugs.push(`an entry without a name: ${JSON.stringify(e)}`);
            if (e.ok && typeof e.imported.recipe.name !== "string") bugs.push(`a recipe without a name`);
          }
        }),
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
      );
      expect(bugs.slice(0, 5)).toEqual([]);
    }, 60_000);
  }
});

describe("the migration service on generated damaged exports", () => {
  const env = migrationLarder("larder-migrate-fuzz-service-");
  for (const type of Object.keys(formats)) {
    it(`${type}: every run finishes with a report, or is refused with a 4xx`, async () => {
      const { fivexx } = await tally(
        formats[type],
        async (specs) => {
          const { done } = await env.larder.migrations.start(env.actor, {
            type,
            path: await upload(type, specs),
          });
          await done;
        },
        Math.max(5, Math.round(FUZZ_RUNS / 4)),
      );
      expect(fivexx.slice(0, 5)).toEqual([]);
    }, 120_000);
  }
});
