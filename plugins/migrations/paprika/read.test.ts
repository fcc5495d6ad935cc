/**
 * The Paprika reader on exports built here: a `.paprikarecipes` zip of gzipped JSON files with the
 * fields Paprika 3 writes (photo_data, photos, free-text times and nutrition, categories, rating), the
 * variants other versions and other apps leave (missing names, nulls, CRLF, gallery-only photos), and
 * broken recipes that must fail alone.
 */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-paprika-");
const jpeg = await picture("jpeg", 8, 6, "#c0392b");
const png = await picture("png", 6, 8, "#27ae60");

const gz = (recipe: unknown) => gzipSync(Buffer.from(JSON.stringify(recipe), "utf8"));

/** A recipe as Paprika 3 exports it, every field present; `over` replaces some. */
function paprika(over: Record<string, unknown>): Record<string, unknown> {
  return {
    uid: "0F3E9A52-1C7B-4D0E-9B8A-3D2C1B0A9F8E",
    name: "Untitled",
    description: "",
    ingredients: "",
    directions: "",
    notes: "",
    nutritional_info: "",
    servings: "",
    difficulty: "",
    prep_time: "",
    cook_time: "",
    total_time: "",
    source: "",
    source_url: "",
    image_url: null,
    photo: null,
    photo_hash: null,
    photo_large: null,
    photo_data: null,
    photos: [],
    categories: [],
    rating: 0,
    created: "2020-01-01 00:00:00",
    hash: "4c8e5d1f",
    ...over,
  };
}

function okEntries(entries: MigratedEntry[]) {
  return byName(entries.filter((e) => e.ok));
}

describe("paprika reader on Larder's own fixtures", () => {
  let entries: MigratedEntry[];
  beforeAll(async () => {
    const soup = paprika({
      uid: "A1B2C3D4-0000-4000-8000-00000000AAAA",
      name: "Lentil Soup",
      description: "A thick winter soup.",
      ingredients: "250 g red lentils\r\n1 onion, chopped\r\n\r\n2 tsp ground cumin\r\n1 l vegetable stock",
      directions:
        "Rinse the lentils until the water runs clear.\r\n\r\nSoften the onion with the cumin.\r\n\r\nAdd the lentils and stock and simmer for 40 minutes.",
      notes: "Keeps three days in the fridge.",
      nutritional_info: "Calories: 250 kcal\nTotal Fat: 12 g\nSaturated fat 3g\nSodium: 0.6 g\nProtein: 14g",
      servings: "4 servings",
      difficulty: "Easy",
      prep_time: "15 mins",
      cook_time: "1 hr 15 mins",
      total_time: "1 hr 30 mins",
      source: "example.org",
      source_url: "https://example.org/lentil-soup",
      photo: "5E3C1A2B-7D9F-4E6A-8B0C-1D2E3F4A5B6C.jpg",
      photo_large: null,
      photo_data: jpeg.toString("base64"),
      categories: ["Soup", "vegan"],
      rating: 4,
      created: "2021-03-04 18:22:10",
    });
    const crepes = paprika({
      uid: "A1B2C3D4-0000-4000-8000-00000000BBBB",
      name: "Crêpes au sucre",
      ingredients: "250 g farine\n3 œufs\n500 ml lait\nsucre",
      directions: "Mélanger la farine et les œufs.\nAjouter le lait peu à peu.\nCuire à la poêle.",
      // Nutrition pasted from a recipe site keeps its one-line layout.
      nutritional_info: "Calories: 389kcal | Carbohydrates: 42g | Protein: 9g | Fat: 21g | Sugar: 11g",
      servings: "12",
      // The main photo is empty: the only picture is in the recipe's photo gallery.
      photo_data: "",
      photos: [{ name: "1", filename: "9A8B7C6D.png", hash: "ab12", data: png.toString("base64") }],
      rating: 0,
      created: "2019-11-30 07:05:00",
    });
    // A recipe saved without a title and with the nulls older exports carry.
    const untitled = paprika({
      uid: "A1B2C3D4-0000-4000-8000-00000000CCCC",
      name: "",
      ingredients: null,
      directions: "Split, butter, eat.",
      categories: null,
      rating: null,
      created: null,
      photos: null,
      servings: null,
    });
    const path = await scratch.zip("Export 2024-05-01 All Recipes.paprikarecipes", [
      { name: "Lentil Soup.paprikarecipe", data: gz(soup) },
      { name: "Crêpes au sucre.paprikarecipe", data: gz(crepes) },
      { name: "Grandma's Scones.paprikarecipe", data: gz(untitled) },
      // Broken: not gzip at all, then gzip of text that is not JSON.
      { name: "Truncated.paprikarecipe", data: Buffer.from("this is not gzip") },
      { name: "Garbled.paprikarecipe", data: gzipSync(Buffer.from('{"name": "Garbled", ')) },
      // Safari's "Compress" adds resource forks; they are never recipes.
      { name: "__MACOSX/._Lentil Soup.paprikarecipe", data: Buffer.from([0, 5, 22, 7]) },
    ]);
    entries = await collect("paprika", path);
  });

  it("reads each field of a full recipe: tags from categories, free-text times, yield, rating, nutrition, notes, date, photo", () => {
    const soup = okEntries(entries).get("Lentil Soup")!;
    expect(soup.recipe.description).toBe("A thick winter soup.");
    expect(soup.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "250 g red lentils",
      "1 onion, chopped",
      "2 tsp ground cumin",
      "1 l vegetable stock",
    ]);
    expect(soup.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Rinse the lentils until the water runs clear.",
      "Soften the onion with the cumin.",
      "Add the lentils and stock and simmer for 40 minutes.",
    ]);
    expect(names(soup.recipe.tags)).toEqual(["Soup", "Vegan"]);
    expect(soup.recipe.prepTime).toBe("15 mins");
    expect(soup.recipe.performTime).toBe("1 hr 15 mins");
    expect(soup.recipe.totalTime).toBe("1 hr 30 mins");
    expect(soup.recipe.recipeYield).toBe("4 servings");
    expect(soup.recipe.rating).toBe(4);
    expect(soup.recipe.nutrition).toEqual({
      calories: "250",
      fatContent: "12",
      saturatedFatContent: "3",
      sodiumContent: "600.0",
      proteinContent: "14",
    });
    expect(soup.recipe.notes).toEqual([{ title: "", text: "Keeps three days in the fridge." }]);
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.recipe.dateAdded).toBe("2021-03-04");
    expect(soup.entry.sourceId).toBe("paprika:A1B2C3D4-0000-4000-8000-00000000AAAA");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(jpeg)).toBe(true);
    expect(soup.entry.imported.image).toMatchObject({ contentType: "image/jpeg" });
  });

  it("takes the gallery photo when photo_data is empty, splits one-line nutrition, and keeps accented names", () => {
    const crepes = okEntries(entries).get("Crêpes au sucre")!;
    expect(crepes.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "250 g farine",
      "3 œufs",
      "500 ml lait",
      "sucre",
    ]);
    expect(crepes.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Mélanger la farine et les œufs.",
      "Ajouter le lait peu à peu.",
      "Cuire à la poêle.",
    ]);
    expect(crepes.recipe.nutrition).toEqual({
      calories: "389",
      carbohydrateContent: "42",
      proteinContent: "9",
      fatContent: "21",
      sugarContent: "11",
    });
    expect(crepes.recipe.recipeYield).toBe("12");
    expect(crepes.recipe.rating).toBeUndefined();
    expect(crepes.recipe.tags).toEqual([]);
    expect(crepes.recipe.prepTime).toBeNull();
    expect(crepes.recipe.orgURL).toBeNull();
    expect(Buffer.from(imageBytes(crepes.entry)!).equals(png)).toBe(true);
    expect(crepes.entry.imported.image).toMatchObject({ contentType: "image/png" });
  });

  it("names a recipe saved without a title after its file, and reads its nulls as empty", () => {
    const scones = okEntries(entries).get("Grandma's Scones")!;
    expect(scones.recipe.name).toBe("Grandma's Scones");
    expect(scones.recipe.recipeIngredient).toEqual([]);
    expect(scones.recipe.recipeInstructions).toEqual([{ title: "", text: "Split, butter, eat." }]);
    expect(scones.recipe.tags).toEqual([]);
    expect(scones.recipe.recipeYield).toBe("");
    expect(scones.recipe.rating).toBeUndefined();
    expect(scones.recipe.dateAdded).toBeUndefined();
    expect(imageBytes(scones.entry)).toBeNull();
  });

  it("fails a broken recipe file alone, naming it and saying why, and skips macOS resource forks", () => {
    expect(entries).toHaveLength(5);
    const failures = entries.filter((e) => !e.ok);
    expect(failures).toEqual([
      {
        ok: false,
        name: "Truncated",
        error: expect.stringMatching(/Recipe 'Truncated' is not valid gzip data/),
      },
      {
        ok: false,
        name: "Garbled",
        error: expect.stringMatching(/Recipe 'Garbled' is not valid JSON/),
      },
    ]);
    expect([...okEntries(entries).keys()].sort()).toEqual([
      "Crêpes au sucre",
      "Grandma's Scones",
      "Lentil Soup",
    ]);
  });

  it("reads recipes that a re-zipped export keeps in a folder", async () => {
    const path = await scratch.zip("My Recipes.zip", [
      { name: "My Recipes/", data: "" },
      { name: "My Recipes/Tea.paprikarecipe", data: gz(paprika({ name: "Tea", directions: "Steep." })) },
    ]);
    const r = byName(await collect("paprika", path));
    expect(r.get("Tea")!.recipe.recipeInstructions).toEqual([{ title: "", text: "Steep." }]);
  });

  it("reads a single .paprikarecipe (one shared recipe) uploaded on its own", async () => {
    const one = gz(paprika({ name: "Lemonade", ingredients: "4 lemons\n100 g sugar\n1 l water" }));
    const path = await scratch.file("Lemonade.paprikarecipe", one);
    expect(
      byName(await collect("paprika", path))
        .get("Lemonade")!
        .recipe.recipeIngredient.map((i) => i.note),
    ).toEqual(["4 lemons", "100 g sugar", "1 l water"]);
  });

  it("refuses a single file that is neither the zip nor a gzipped recipe, before reading it", async () => {
    const path = await scratch.file("recipes.csv", "name,ingredients\nSoup,water\n");
    await expect(collect("paprika", path)).rejects.toThrow(
      "The upload is neither a zip archive nor a single Paprika recipe. Check the migration type.",
    );
  });

  it("refuses an archive with no .paprikarecipe in it as not a Paprika export", async () => {
    const path = await scratch.zip("not-paprika.zip", [{ name: "Soup/recipe.json", data: "{}" }]);
    await expect(collect("paprika", path)).rejects.toThrow(
      "This archive is not a Paprika export: no .paprikarecipe file was found. Check the migration type.",
    );
  });
});
