/**
 * The Cook'n reader on exports built here: two invented cookbooks written as Cook'n writes its "export
 * cookbook" zip (`.dsv` tables split by `||||` and `!@#%^&*()`, pictures named by their media ID), one as
 * a plain zip and both as a zip of zips, with the variants real exports carry (`[null]` cells, CRLF, a
 * top folder, a BOM, a Latin-1 table, rows out of display order), a broken recipe, the wrong archive,
 * and the migration service on top.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeZip, type ZipSpec } from "../../../tests/support/zip-writer.js";
import {
  byName,
  collect,
  imageBytes,
  MIGRATIONS_DIR,
  migrationLarder,
  names,
  picture,
  scratchFolder,
} from "../test-support.js";

const scratch = scratchFolder("larder-cookn-");

type Rows = Array<Record<string, string>>;

/** A Cook'n table: a header row, then the rows (a missing cell is Cook'n's `[null]`). */
function dsv(header: string[], rows: Rows, eol = ""): string {
  return [header, ...rows.map((r) => header.map((h) => r[h] ?? "[null]"))]
    .map((cells) => cells.join("||||") + "!@#%^&*()" + eol)
    .join("");
}

const HEADERS = {
  temp_recipe: ["ID", "SERVES", "PREPTIME", "COOKTIME", "INSTRUCTIONS"],
  temp_recipe_desc: ["ID", "TITLE", "DESCRIPTION", "PARENT"],
  temp_chapter_desc: ["ID", "TITLE", "PARENT"],
  temp_cookBook_desc: ["ID", "TITLE"],
  temp_ingredient: [
    "ID",
    "PARENT_ID",
    "DISPLAY_ORDER",
    "AMOUNT_QTY_STRING",
    "AMOUNT_UNIT",
    "INGREDIENT_FOOD_ID",
    "BRAND_ID",
    "PRE_QUALIFIER",
    "POST_QUALIFIER",
  ],
  temp_unit: ["ID", "NAME", "PLURAL_NAME", "ABBREVIATION"],
  temp_food: ["ID", "NAME", "PLURAL_NAME"],
  temp_brand: ["ID", "NAME"],
  temp_media: ["ID", "ENTITY_ID", "MEDIA_CONTENT_TYPE"],
};
type Table = keyof typeof HEADERS;

/** A cookbook's zip entries: every table (empty when not given), its media files, under `dir`. */
function cookbook(
  tables: Partial<Record<Table, Rows>>,
  media: Record<string, Buffer>,
  opts: { dir?: string; eol?: string; raw?: Partial<Record<Table, Buffer | string>> } = {},
): ZipSpec[] {
  const at = (name: string) => (opts.dir ? `${opts.dir}/${name}` : name);
  return [
    ...(Object.keys(HEADERS) as Table[]).map((t) => ({
      name: at(`${t}.dsv`),
      data: opts.raw?.[t] ?? dsv(HEADERS[t], tables[t] ?? [], opts.eol),
    })),
    ...Object.entries(media).map(([name, data]) => ({ name: at(name), data })),
  ];
}

/** "Family Favourites": three recipes in two chapters, a picture on a recipe and one on a chapter. */
function familyFavourites(soupPhoto: Buffer, dessertsPhoto: Buffer): ZipSpec[] {
  return cookbook(
    {
      temp_cookBook_desc: [{ ID: "CB1", TITLE: "Family Favourites" }],
      temp_chapter_desc: [
        { ID: "CH1", TITLE: "Soups", PARENT: "CB1" },
        { ID: "CH2", TITLE: "Desserts", PARENT: "CB1" },
      ],
      temp_recipe: [
        {
          ID: "R1",
          SERVES: "4",
          PREPTIME: "15",
          COOKTIME: "45",
          INSTRUCTIONS:
            "1. Rinse the lentils.\r\n2) Soften the onion in the oil,\r\nstirring often.\r\n\r\n3 - Add the lentils and a litre of water; simmer 40 minutes.",
        },
        {
          ID: "R2",
          SERVES: "[null]",
          PREPTIME: "a while",
          COOKTIME: "20",
          INSTRUCTIONS:
            "- Whisk the eggs, milk and flour.\n* Rest the batter 1 hour.\n• Cook thin crêpes; sprinkle with sugar.",
        },
        {
          ID: "R3",
          SERVES: "2",
          PREPTIME: "",
          COOKTIME: "5",
          INSTRUCTIONS: "Toast the bread.\n\nButter it while hot.",
        },
      ],
      temp_recipe_desc: [
        { ID: "R1", TITLE: "Lentil Soup", DESCRIPTION: "[null]", PARENT: "CH1" },
        { ID: "R2", TITLE: "Crêpes au sucre", DESCRIPTION: "Thin French pancakes.", PARENT: "CH2" },
        { ID: "R3", TITLE: "Buttered Toast", DESCRIPTION: "", PARENT: "CH1" },
      ],
      temp_unit: [
        { ID: "U1", NAME: "cup", PLURAL_NAME: "cups", ABBREVIATION: "c" },
        { ID: "U2", NAME: "tablespoon", PLURAL_NAME: "tablespoons", ABBREVIATION: "tbsp" },
        { ID: "U3", NAME: "[null]", PLURAL_NAME: "[null]", ABBREVIATION: "sl" },
      ],
      temp_food: [
        { ID: "F1", NAME: "red lentils", PLURAL_NAME: "red lentils" },
        { ID: "F2", NAME: "onion", PLURAL_NAME: "onions" },
        { ID: "F3", NAME: "olive oil", PLURAL_NAME: "[null]" },
        { ID: "F4", NAME: "salt", PLURAL_NAME: "[null]" },
        { ID: "F5", NAME: "egg", PLURAL_NAME: "eggs" },
        { ID: "F6", NAME: "milk", PLURAL_NAME: "[null]" },
        { ID: "F7", NAME: "bread", PLURAL_NAME: "[null]" },
      ],
      temp_brand: [{ ID: "B1", NAME: "Bertolli" }],
      // Written out of display order; a row with no whole-number order and an empty row are passed over.
      temp_ingredient: [
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "3",
          AMOUNT_QTY_STRING: "2",
          AMOUNT_UNIT: "U2",
          INGREDIENT_FOOD_ID: "F3",
          BRAND_ID: "B1",
          PRE_QUALIFIER: "extra-virgin,",
        },
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "1",
          AMOUNT_QTY_STRING: "1 1/2",
          AMOUNT_UNIT: "U1",
          INGREDIENT_FOOD_ID: "F1",
          POST_QUALIFIER: ", rinsed",
        },
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "2",
          AMOUNT_QTY_STRING: "2",
          INGREDIENT_FOOD_ID: "F2",
          PRE_QUALIFIER: "large",
          POST_QUALIFIER: ", diced,",
        },
        { PARENT_ID: "R1", DISPLAY_ORDER: "x", AMOUNT_QTY_STRING: "9", INGREDIENT_FOOD_ID: "F5" },
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "4",
          AMOUNT_QTY_STRING: "0",
          INGREDIENT_FOOD_ID: "F4",
          POST_QUALIFIER: "to taste",
        },
        { PARENT_ID: "R1", DISPLAY_ORDER: "5", AMOUNT_QTY_STRING: "0" },
        { PARENT_ID: "R2", DISPLAY_ORDER: "1", AMOUNT_QTY_STRING: "3", INGREDIENT_FOOD_ID: "F5" },
        {
          PARENT_ID: "R2",
          DISPLAY_ORDER: "2",
          AMOUNT_QTY_STRING: "1/2",
          AMOUNT_UNIT: "U1",
          INGREDIENT_FOOD_ID: "F6",
          POST_QUALIFIER: "cold",
        },
        {
          PARENT_ID: "R3",
          DISPLAY_ORDER: "1",
          AMOUNT_QTY_STRING: "2",
          AMOUNT_UNIT: "U3",
          INGREDIENT_FOOD_ID: "F7",
        },
      ],
      temp_media: [
        { ID: "M1", ENTITY_ID: "R1", MEDIA_CONTENT_TYPE: "image/jpeg" },
        { ID: "M2", ENTITY_ID: "CH2", MEDIA_CONTENT_TYPE: "image/png" },
        // A media row whose file the export lacks gives no picture, and no failure.
        { ID: "M3", ENTITY_ID: "CH1", MEDIA_CONTENT_TYPE: "image/jpeg" },
      ],
    },
    { M1: soupPhoto, M2: dessertsPhoto },
    { eol: "\r\n" },
  );
}

/** "Weeknight Dinners": its own recipe "R1" (IDs repeat across cookbooks), in a top folder. */
function weeknightDinners(extra: { recipe?: Rows } = {}): ZipSpec[] {
  const latin1Food = Buffer.from(
    dsv(HEADERS.temp_food, [
      { ID: "F1", NAME: "petits pois", PLURAL_NAME: "[null]" },
      { ID: "F2", NAME: "crème fraîche" },
    ]),
    "latin1",
  );
  return cookbook(
    {
      temp_cookBook_desc: [{ ID: "CB9", TITLE: "Weeknight Dinners" }],
      temp_chapter_desc: [{ ID: "CH1", TITLE: "Quick", PARENT: "CB9" }],
      temp_recipe_desc: [{ ID: "R1", TITLE: "Pea Soup", DESCRIPTION: "Green and quick.", PARENT: "CH1" }],
      temp_ingredient: [
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "1",
          AMOUNT_QTY_STRING: "500",
          AMOUNT_UNIT: "U1",
          INGREDIENT_FOOD_ID: "F1",
          PRE_QUALIFIER: "frozen",
        },
        {
          PARENT_ID: "R1",
          DISPLAY_ORDER: "2",
          AMOUNT_QTY_STRING: "[null]",
          INGREDIENT_FOOD_ID: "F2",
          POST_QUALIFIER: "to serve",
        },
      ],
      temp_unit: [{ ID: "U1", NAME: "gram", PLURAL_NAME: "grams", ABBREVIATION: "g" }],
    },
    {},
    {
      dir: "Weeknight Dinners",
      raw: {
        // A BOM before the header, and a table written in Latin-1 by an older Windows build.
        temp_recipe:
          "\uFEFF" +
          dsv(
            HEADERS.temp_recipe,
            [
              {
                ID: "R1",
                SERVES: "2",
                PREPTIME: "5",
                COOKTIME: "10",
                INSTRUCTIONS: "Simmer the peas in stock.\nBlend; serve with crème fraîche.",
              },
              ...(extra.recipe ?? []),
            ],
            "\n",
          ),
        temp_food: latin1Food,
      },
    },
  );
}

describe("Cook'n reader on exports built here", () => {
  it("reads a cookbook: titles, category, yield, times, ingredient lines, steps and pictures", async () => {
    const soupPhoto = await picture("jpeg", 6, 4, "#b5651d");
    const dessertsPhoto = await picture("png", 4, 4, "#f5deb3");
    const path = await scratch.zip("family.zip", familyFavourites(soupPhoto, dessertsPhoto));
    const totals: number[] = [];
    const r = byName(await collect("cookn", path, (n) => totals.push(n)));
    expect(totals).toEqual([3]);
    expect([...r.keys()]).toEqual(["Lentil Soup", "Crêpes au sucre", "Buttered Toast"]);

    const soup = r.get("Lentil Soup")!;
    expect(soup.recipe.description).toBe("");
    expect(names(soup.recipe.recipeCategory)).toEqual(["Family Favourites - Soups"]);
    expect(soup.recipe.recipeYield).toBe("4");
    expect(soup.recipe.recipeServings).toBe(4);
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("45 minutes");
    expect(soup.recipe.totalTime).toBe("1 hour");
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: null, note: "1 1/2 cups red lentils, rinsed" },
      { title: null, note: "2 large onions, diced" },
      { title: null, note: "2 tablespoons extra-virgin olive oil Bertolli" },
      { title: null, note: "salt to taste" },
    ]);
    // Numbered steps; a line without a number goes on with the step before it.
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "", text: "Rinse the lentils." },
      { title: "", text: "Soften the onion in the oil,\nstirring often." },
      { title: "", text: "Add the lentils and a litre of water; simmer 40 minutes." },
    ]);
    expect(Buffer.from(imageBytes(soup.entry)!)).toEqual(soupPhoto);
    expect(soup.entry.sourceId).toBe("cookn:Family Favourites/R1");

    const crepes = r.get("Crêpes au sucre")!;
    expect(crepes.recipe.description).toBe("Thin French pancakes.");
    expect(names(crepes.recipe.recipeCategory)).toEqual(["Family Favourites - Desserts"]);
    expect(crepes.recipe.recipeYield).toBe("");
    expect(crepes.recipe.recipeServings).toBeUndefined();
    expect(crepes.recipe.prepTime).toBeNull();
    expect(crepes.recipe.performTime).toBe("20 minutes");
    expect(crepes.recipe.totalTime).toBe("20 minutes");
    expect(crepes.recipe.recipeIngredient.map((i) => i.note)).toEqual(["3 eggs", "1/2 cup milk cold"]);
    expect(crepes.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Whisk the eggs, milk and flour.",
      "Rest the batter 1 hour.",
      "Cook thin crêpes; sprinkle with sugar.",
    ]);
    // No picture of its own: its chapter's.
    expect(Buffer.from(imageBytes(crepes.entry)!)).toEqual(dessertsPhoto);

    const toast = r.get("Buttered Toast")!;
    // Without numbers or bullets, each line is a step; a unit with only an abbreviation gives it.
    expect(toast.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Toast the bread.",
      "Butter it while hot.",
    ]);
    expect(toast.recipe.recipeIngredient.map((i) => i.note)).toEqual(["2 sl bread"]);
    expect(toast.recipe.prepTime).toBeNull();
    expect(toast.recipe.totalTime).toBe("5 minutes");
    // Its chapter's media row names a file the export does not hold: no picture.
    expect(toast.entry.imported.image).toBeUndefined();
    expect(toast.entry.warnings).toBeUndefined();
  });

  it("a zip of cookbook zips reads each; recipe IDs that repeat across cookbooks stay apart", async () => {
    const path = await scratch.zip("cookbooks.zip", [
      {
        name: "Family Favourites.zip",
        data: makeZip(
          familyFavourites(await picture("jpeg", 2, 2, "#800"), await picture("png", 2, 2, "#080")),
        ),
      },
      { name: "Weeknight Dinners.zip", data: makeZip(weeknightDinners()) },
      { name: "__MACOSX/._Weeknight Dinners.zip", data: "junk" },
    ]);
    const totals: number[] = [];
    const entries = await collect("cookn", path, (n) => totals.push(n));
    expect(totals).toEqual([4]);
    const r = byName(entries);
    expect([...r.keys()]).toEqual(["Lentil Soup", "Crêpes au sucre", "Buttered Toast", "Pea Soup"]);
    expect(r.get("Lentil Soup")!.entry.sourceId).toBe("cookn:Family Favourites/R1");
    const pea = r.get("Pea Soup")!;
    expect(pea.entry.sourceId).toBe("cookn:Weeknight Dinners/R1");
    expect(names(pea.recipe.recipeCategory)).toEqual(["Weeknight Dinners - Quick"]);
    expect(pea.recipe.description).toBe("Green and quick.");
    // The Latin-1 table reads as its author wrote it.
    expect(pea.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "500 grams frozen petits pois",
      "crème fraîche to serve",
    ]);
    expect(pea.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Simmer the peas in stock.",
      "Blend; serve with crème fraîche.",
    ]);
    expect(pea.recipe.totalTime).toBe("15 minutes");
    expect(pea.entry.imported.image).toBeUndefined();
  });

  it("finds a picture not named by its bare media ID: another case, an extension, a folder, a named file", async () => {
    const [leek, pea, toast, cake] = await Promise.all([
      picture("jpeg", 2, 2, "#800"),
      picture("png", 2, 2, "#080"),
      picture("jpeg", 2, 2, "#008"),
      picture("jpeg", 2, 2, "#888"),
    ]);
    const recipes = ["Leek Tart", "Pea Soup", "Toast", "Cake", "Salad"].map((title, i) => ({
      ID: `R${i + 1}`,
      TITLE: title,
      PARENT: "CH1",
    }));
    // A column naming the file, as a copy from another Cook'n version or tool may carry.
    const media = dsv(
      ["ID", "ENTITY_ID", "MEDIA_CONTENT_TYPE", "FILE_NAME"],
      [
        { ID: "M1", ENTITY_ID: "R1", MEDIA_CONTENT_TYPE: "image/jpeg", FILE_NAME: "" },
        { ID: "M2", ENTITY_ID: "R2", MEDIA_CONTENT_TYPE: "image/png", FILE_NAME: "" },
        { ID: "M3", ENTITY_ID: "R3", MEDIA_CONTENT_TYPE: "image/jpeg", FILE_NAME: "" },
        {
          ID: "M4",
          ENTITY_ID: "R4",
          MEDIA_CONTENT_TYPE: "image/jpeg",
          FILE_NAME: "C:\\Users\\Ann\\Documents\\Cook'n\\Media\\Birthday Cake.JPG",
        },
        // Nothing in the export answers to it: no picture, and the recipe still comes in.
        { ID: "M5", ENTITY_ID: "R5", MEDIA_CONTENT_TYPE: "image/jpeg", FILE_NAME: "2" },
      ],
    );
    const path = await scratch.zip("media-names.zip", [
      ...cookbook(
        {
          temp_cookBook_desc: [{ ID: "CB1", TITLE: "Garden" }],
          temp_chapter_desc: [{ ID: "CH1", TITLE: "All", PARENT: "CB1" }],
          temp_recipe: recipes.map((r) => ({ ID: r.ID })),
          temp_recipe_desc: recipes,
        },
        { "m1.JPG": leek, "M2.png": pea, "media/M3": toast, "Birthday Cake.jpg": cake, "2": cake },
        { raw: { temp_media: media } },
      ),
    ]);
    const r = byName(await collect("cookn", path));
    const bytes = (name: string) => Buffer.from(imageBytes(r.get(name)!.entry) ?? []);
    expect(bytes("Leek Tart")).toEqual(leek);
    expect(bytes("Pea Soup")).toEqual(pea);
    expect(bytes("Toast")).toEqual(toast);
    expect(bytes("Cake")).toEqual(cake);
    expect(r.get("Salad")!.entry.imported.image).toBeUndefined();
  });

  it("a recipe without its desc row fails alone, naming it; a damaged cookbook zip fails alone", async () => {
    const path = await scratch.zip("broken.zip", [
      {
        name: "Weeknight Dinners.zip",
        data: makeZip(weeknightDinners({ recipe: [{ ID: "R2", SERVES: "1", INSTRUCTIONS: "Eat." }] })),
      },
      { name: "Damaged.zip", data: "PK\u0003\u0004 this is not the rest of a zip" },
    ]);
    const entries = await collect("cookn", path);
    expect(entries.map((e) => [e.ok, e.name])).toEqual([
      [true, "Pea Soup"],
      [false, "Cook'n recipe R2"],
      [false, "Damaged.zip"],
    ]);
    expect(entries[1]).toMatchObject({
      error:
        'Error: recipe R2 of "Weeknight Dinners" has no row in temp_recipe_desc.dsv; it was not imported',
    });
    expect(entries[2]).toMatchObject({
      error: expect.stringMatching(/^Error: Damaged\.zip in the export cannot be read as a zip \(/),
    });
  });

  it("an archive without temp_recipe.dsv is not a Cook'n export, nor is a zip of other zips", async () => {
    const message =
      "This archive is not a Cook'n export: no temp_recipe.dsv was found. Check the migration type.";
    const html = await scratch.zip("keeper.zip", [{ name: "recipes.html", data: "<html></html>" }]);
    await expect(collect("cookn", html)).rejects.toThrow(message);
    const tandoor = await scratch.zip("tandoor.zip", [
      { name: "Lentil_Soup.zip", data: makeZip([{ name: "recipe.json", data: '{"name":"Lentil Soup"}' }]) },
    ]);
    await expect(collect("cookn", tandoor)).rejects.toThrow(message);
  });
});

describe("Cook'n through the migration service", () => {
  const env = migrationLarder("larder-cookn-service-");

  it("brings a cookbook's recipes in with their pictures, and a re-run skips them", async () => {
    const { larder, actor } = env;
    const path = await scratch.zip(
      "service.zip",
      familyFavourites(await picture("jpeg", 8, 8, "#a52a2a"), await picture("png", 8, 8, "#fafad2")),
    );
    const first = await (await larder.migrations.start(actor, { type: "cookn", path })).done;
    expect(first.entries).toEqual([
      { status: "imported", name: "Lentil Soup", slug: "lentil-soup" },
      { status: "imported", name: "Crêpes au sucre", slug: "crepes-au-sucre" },
      { status: "imported", name: "Buttered Toast", slug: "buttered-toast" },
    ]);
    const again = await (await larder.migrations.start(actor, { type: "cookn", path })).done;
    expect(again).toMatchObject({ imported: 0, skipped: 3, failed: 0 });
  });
});

/** Mealie's own Cook'n test export, when the fixtures hold it (they hold none yet). */
const REAL_EXPORT = `${MIGRATIONS_DIR}cookn.zip`;
const realExport = existsSync(REAL_EXPORT);
if (!realExport) console.warn(`Cook'n fixture test: no real Cook'n export at ${REAL_EXPORT}; skipped`);

describe.skipIf(!realExport)("Cook'n reader on a real export", () => {
  it("reads every recipe, and a picture for each that has one", async () => {
    const entries = await collect("cookn", REAL_EXPORT);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((e) => !e.ok)).toEqual([]);
    expect(entries.some((e) => e.ok && e.imported.image)).toBe(true);
    expect(entries.flatMap((e) => (e.ok ? (e.warnings ?? []) : []))).toEqual([]);
  });
});
