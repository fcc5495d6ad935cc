/**
 * The Tandoor reader on exports built here: an `export.zip` of per-recipe zips, each with `recipe.json`
 * and `image.<ext>`, as Tandoor's default exporter writes them (inner zips named after the recipe with
 * underscores, or by id in older versions), with ingredient headers, amount-less ingredients, keywords,
 * working/waiting minutes, servings text, source URL and nutrition; an older export's shape (no
 * source_url or servings_text, decimal amounts as text); and broken inner zips that must fail alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-tandoor-");
const png = await picture("png", 10, 10, "#8e44ad");
const jpeg = await picture("jpeg", 10, 10, "#8e44ad");
const webp = await picture("webp", 10, 10, "#8e44ad");

type Ing = Record<string, unknown>;
/** An ingredient as Tandoor's export serializer writes it. */
function ing(amount: unknown, unit: string | null, food: string | null, note = "", extra: Ing = {}): Ing {
  return {
    food:
      food === null
        ? null
        : { name: food, plural_name: null, ignore_shopping: false, supermarket_category: null },
    unit: unit === null ? null : { name: unit, plural_name: null, description: null },
    amount,
    note,
    order: 0,
    is_header: false,
    no_amount: false,
    always_use_plural_unit: false,
    always_use_plural_food: false,
    ...extra,
  };
}
const header = (text: string) => ing(0, null, null, text, { is_header: true, no_amount: true });
const keyword = (name: string) => ({ name, icon: null, description: "" });

const lentilSoup = {
  name: "Lentil Soup",
  description: "A thick winter soup.",
  keywords: [keyword("soup"), keyword("Vegan")],
  steps: [
    {
      name: "Prepare",
      instruction: "Rinse the lentils.\r\n\r\nDice the onion.",
      ingredients: [
        header("For the soup"),
        ing(250, "g", "red lentils", "rinsed"),
        ing(1, null, "onion", "diced"),
        ing(0.5, "tsp", "ground cumin"),
        ing(0, null, "salt", "to taste", { no_amount: true }),
      ],
      time: 10,
      order: 0,
      show_as_header: true,
      show_ingredients_table: true,
    },
    {
      name: "",
      instruction: "Simmer for **40 minutes**, then [blend](https://example.org/blending).",
      ingredients: [header("To serve"), ing(2, "tbsp", "yoghurt")],
      time: 40,
      order: 1,
      show_as_header: false,
      show_ingredients_table: true,
    },
  ],
  working_time: 15,
  waiting_time: 40,
  internal: true,
  nutrition: { carbohydrates: 40.5, fats: 8, proteins: 18, calories: 320, source: "" },
  servings: 4,
  servings_text: "bowls",
  source_url: "https://example.org/lentil-soup",
};

// An older export: no source_url or servings_text, steps with a type, amounts rendered as decimal text.
const crepes = {
  name: "Crêpes au sucre",
  description: "",
  keywords: [],
  steps: [
    {
      name: "",
      type: "TEXT",
      instruction: "Mélanger la farine, les œufs et le lait.\n\nCuire à la poêle.",
      ingredients: [ing("250.000", "g", "farine"), ing("3.000", null, "œufs"), ing("0.500", "l", "lait")],
      time: 0,
      order: 0,
      show_as_header: true,
    },
  ],
  working_time: 0,
  waiting_time: 0,
  internal: true,
  nutrition: null,
  servings: 12,
};

// No name: the inner zip's name stands in.
const rice = {
  name: "",
  description: "",
  keywords: null,
  steps: [{ name: "", instruction: "Cook the rice.", ingredients: [ing(1, "cup", "rice")] }],
  working_time: 5,
  waiting_time: 0,
  nutrition: null,
  servings: 0,
  servings_text: "",
  source_url: null,
};

function innerZip(recipe: unknown, image?: { name: string; data: Buffer }): Buffer {
  return makeZip([{ name: "recipe.json", data: JSON.stringify(recipe) }, ...(image ? [image] : [])]);
}

describe("tandoor reader on Larder's own fixtures", () => {
  let entries: MigratedEntry[];
  beforeAll(async () => {
    const path = await scratch.zip("export.zip", [
      { name: "Lentil_Soup.zip", data: innerZip(lentilSoup, { name: "image.png", data: png }) },
      { name: "Crêpes_au_sucre.zip", data: innerZip(crepes, { name: "image.jpeg", data: jpeg }) },
      { name: "Plain_Rice.zip", data: innerZip(rice, { name: "image.webp", data: webp }) },
      // Broken: not a zip; a zip without recipe.json; a recipe.json that is not JSON.
      { name: "Truncated.zip", data: Buffer.from("half a download, not a zip") },
      { name: "No_Recipe.zip", data: makeZip([{ name: "image.png", data: png }]) },
      {
        name: "Garbled.zip",
        data: makeZip([{ name: "recipe.json", data: '{"name": "Garbled", "steps": [' }]),
      },
    ]);
    entries = await collect("tandoor", path);
  });

  it("reads ingredients from the steps with header sections, keywords, minutes, servings text, nutrition, source and image", () => {
    const soup = byName(entries.filter((e) => e.ok)).get("Lentil Soup")!;
    expect(soup.recipe.description).toBe("A thick winter soup.");
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: "For the soup", note: "250 g red lentils rinsed" },
      { title: null, note: "1 onion diced" },
      { title: null, note: "0.5 tsp ground cumin" },
      { title: null, note: "salt to taste" },
      { title: "To serve", note: "2 tbsp yoghurt" },
    ]);
    // Step text keeps its Markdown; Windows line ends become plain ones.
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "Prepare", text: "Rinse the lentils.\n\nDice the onion." },
      { title: "", text: "Simmer for **40 minutes**, then [blend](https://example.org/blending)." },
    ]);
    expect(names(soup.recipe.tags)).toEqual(["Soup", "Vegan"]);
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("40 minutes");
    expect(soup.recipe.recipeYield).toBe("4 bowls");
    expect(soup.recipe.recipeServings).toBe(4);
    expect(soup.recipe.nutrition).toEqual({
      calories: "320",
      carbohydrateContent: "40.5",
      fatContent: "8",
      proteinContent: "18",
    });
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.entry.sourceId).toBe("https://example.org/lentil-soup");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(png)).toBe(true);
    expect(soup.entry.imported.image).toMatchObject({ contentType: "image/png" });
  });

  it("reads an older export: decimal amounts as text, no servings text or source URL, zero times as none", () => {
    const c = byName(entries.filter((e) => e.ok)).get("Crêpes au sucre")!;
    expect(c.recipe.recipeIngredient.map((i) => i.note)).toEqual(["250 g farine", "3 œufs", "0.5 l lait"]);
    expect(c.recipe.recipeInstructions).toEqual([
      { title: "", text: "Mélanger la farine, les œufs et le lait.\n\nCuire à la poêle." },
    ]);
    expect(c.recipe.tags).toEqual([]);
    expect(c.recipe.prepTime).toBeNull();
    expect(c.recipe.performTime).toBeNull();
    expect(c.recipe.recipeYield).toBe("12");
    expect(c.recipe.recipeServings).toBe(12);
    expect(c.recipe.nutrition).toEqual({});
    expect(c.recipe.orgURL).toBeNull();
    expect(c.entry.sourceId).toBe("tandoor:Crêpes au sucre");
    expect(Buffer.from(imageBytes(c.entry)!).equals(jpeg)).toBe(true);
  });

  it("names a recipe without a name after its zip, underscores as spaces; webp images are kept", () => {
    const rice2 = byName(entries.filter((e) => e.ok)).get("Plain Rice")!;
    expect(rice2.recipe.name).toBe("Plain Rice");
    expect(rice2.recipe.recipeIngredient).toEqual([{ title: null, note: "1 cup rice" }]);
    expect(rice2.recipe.prepTime).toBe("5 minutes");
    expect(rice2.recipe.recipeYield).toBe("");
    expect(rice2.recipe.recipeServings).toBeUndefined();
    expect(rice2.entry.imported.image).toMatchObject({ contentType: "image/webp" });
  });

  it("fails each broken inner zip alone, named after the zip, saying what is wrong", () => {
    expect(entries).toHaveLength(6);
    expect(entries.filter((e) => !e.ok)).toEqual([
      { ok: false, name: "Truncated", error: "Error: Truncated.zip in the export is not a zip archive" },
      { ok: false, name: "No Recipe", error: "Error: recipe.json is missing" },
      {
        ok: false,
        name: "Garbled",
        error: expect.stringMatching(/^Error: recipe\.json is not valid JSON \(/),
      },
    ]);
    expect(
      entries
        .filter((e) => e.ok)
        .map((e) => e.name)
        .sort(),
    ).toEqual(["Crêpes au sucre", "Lentil Soup", "Plain Rice"]);
  });

  it("reads inner zips named by id, as older Tandoor versions wrote them, and a recipe without an image", async () => {
    const path = await scratch.zip("export-by-id.zip", [
      { name: "7.zip", data: innerZip({ ...lentilSoup, name: "Soup Seven" }) },
    ]);
    const r = byName(await collect("tandoor", path));
    expect(r.get("Soup Seven")!.recipe.recipeIngredient[0]).toEqual({
      title: "For the soup",
      note: "250 g red lentils rinsed",
    });
    expect(imageBytes(r.get("Soup Seven")!.entry)).toBeNull();
  });

  it("takes a recipe zip's only JSON when a re-zipped export renamed recipe.json", async () => {
    const renamed = makeZip([
      { name: "Soup Seven.json", data: JSON.stringify({ ...lentilSoup, name: "Soup Seven" }) },
    ]);
    const path = await scratch.zip("renamed.zip", [{ name: "Soup_Seven.zip", data: renamed }]);
    expect([...byName(await collect("tandoor", path)).keys()]).toEqual(["Soup Seven"]);
  });

  it("refuses an archive with no inner zip as not a Tandoor export", async () => {
    const path = await scratch.zip("not-tandoor.zip", [
      { name: "recipe.json", data: JSON.stringify(lentilSoup) },
    ]);
    await expect(collect("tandoor", path)).rejects.toThrow(
      "This archive is not a Tandoor export: no per-recipe zip holding recipe.json was found. Check the migration type.",
    );
  });
});

describe("values of another shape", () => {
  it("nulls where lists and items are expected, servings and amounts as text: what there is imports", async () => {
    const json = {
      name: "Sparse",
      servings: "4",
      working_time: "15",
      keywords: [null, { name: "quick" }],
      nutrition: null,
      steps: [
        null,
        { instruction: null, ingredients: null },
        {
          name: "Mix",
          instruction: "Stir.\r\nServe.",
          ingredients: [null, { amount: "2", unit: null, food: { name: "eggs" }, note: null }],
        },
      ],
    };
    const zip = makeZip([
      {
        name: "Sparse.zip",
        data: makeZip([{ name: "recipe.json", data: JSON.stringify(json) }]),
        store: true,
      },
    ]);
    const r = byName(await collect("tandoor", await scratch.file("tandoor-sparse.zip", zip)));
    const { recipe } = r.get("Sparse")!;
    expect(recipe.recipeIngredient.map((i) => i.note)).toEqual(["2 eggs"]);
    expect(recipe.recipeInstructions.map((s) => s.text)).toEqual(["Stir.\nServe."]);
    expect(names(recipe.tags)).toEqual(["Quick"]);
    expect(recipe.recipeServings).toBe(4);
  });
});
