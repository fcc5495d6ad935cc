/**
 * The Nextcloud Cookbook reader on exports built here: one folder per recipe with a schema.org
 * `recipe.json` and `full.jpg` / `thumb.jpg` / `thumb16.jpg`, as Cookbook versions write them (steps as
 * strings, HowToStep or HowToSection; yields as numbers or text; categories as text or lists; ISO
 * durations with zero hours; epoch or ISO creation dates), zipped at the root or inside the "Recipes"
 * folder Nextcloud's Files app downloads, with a broken recipe that must fail alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-nextcloud-");
const full = await picture("jpeg", 16, 12, "#e67e22");
const thumb = await picture("jpeg", 4, 3, "#e67e22");

const json = (v: unknown) => JSON.stringify(v, null, 2);

const lentilSoup = {
  "@context": "http://schema.org",
  "@type": "Recipe",
  id: "812",
  name: "Lentil Soup",
  description: "<p>A <b>warming</b> soup &amp; a good lunch.</p>",
  url: "https://example.org/lentil-soup",
  image: "https://example.org/lentil-soup.jpg",
  prepTime: "PT0H15M",
  cookTime: "PT1H30M",
  totalTime: "PT1H45M",
  recipeYield: 4,
  recipeCategory: "Soup",
  keywords: "vegan, winter ,lentils",
  tool: ["large pot", "stick blender"],
  recipeIngredient: ["250 g red lentils", "1 onion, chopped", "1 l vegetable stock"],
  recipeInstructions: [
    { "@type": "HowToStep", text: "Soften the onion in a large pot." },
    { "@type": "HowToStep", text: "Add the lentils and the stock." },
    { "@type": "HowToStep", text: "Simmer for 40 minutes, then blend." },
  ],
  nutrition: {
    "@type": "NutritionInformation",
    calories: "250 kcal",
    fatContent: "4 g",
    sodiumContent: "1.2 g",
    proteinContent: "14 g",
    servingSize: "1 bowl",
  },
  dateCreated: "2023-01-15T10:00:00+0000",
  dateModified: "2023-02-01T08:00:00+0000",
};

const crepes = {
  "@context": "http://schema.org",
  "@type": "Recipe",
  id: 913,
  name: "Crêpes au sucre",
  description: "",
  url: "",
  prepTime: "PT0H10M",
  cookTime: "PT0H20M",
  totalTime: "PT0H30M",
  recipeYield: "12 crêpes",
  recipeCategory: ["dessert", "breakfast"],
  keywords: "",
  recipeIngredient: ["250 g farine", "3 œufs", "500 ml lait", "sucre"],
  recipeInstructions: [
    "Mélanger la farine et les œufs.\n",
    "Ajouter le lait peu à peu.",
    "Cuire à la poêle.",
  ],
  nutrition: [],
  // Older Cookbooks wrote seconds since 1970, as a string.
  dateCreated: "1607461134",
  dateModified: "1607461134",
};

// Sections of steps; no name (the folder's name stands in); written on Windows with a BOM.
const bread = {
  "@context": "http://schema.org",
  "@type": "Recipe",
  recipeYield: 1,
  recipeCategory: "",
  keywords: "bread",
  recipeIngredient: ["500 g flour", "350 g water", "10 g salt", "1 g yeast"],
  recipeInstructions: [
    {
      "@type": "HowToSection",
      name: "Dough",
      itemListElement: [
        { "@type": "HowToStep", text: "Mix everything." },
        { "@type": "HowToStep", text: "Leave overnight." },
      ],
    },
    {
      "@type": "HowToSection",
      name: "Baking",
      itemListElement: [{ "@type": "HowToStep", text: "Bake at 250 °C for 45 minutes." }],
    },
  ],
  dateCreated: "0",
};

describe("nextcloud reader on Larder's own fixtures", () => {
  let entries: MigratedEntry[];
  beforeAll(async () => {
    const path = await scratch.zip("cookbook.zip", [
      { name: "Lentil Soup/", data: "" },
      { name: "Lentil Soup/recipe.json", data: json(lentilSoup) },
      { name: "Lentil Soup/full.jpg", data: full },
      { name: "Lentil Soup/thumb.jpg", data: thumb },
      { name: "Lentil Soup/thumb16.jpg", data: thumb },
      { name: "Crêpes au sucre/recipe.json", data: json(crepes) },
      {
        name: "Country Bread/recipe.json",
        data: Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from(json(bread).replace(/\n/g, "\r\n")),
        ]),
      },
      // Only Nextcloud's small copies, no original.
      { name: "Country Bread/thumb.jpg", data: thumb },
      { name: "Country Bread/thumb16.jpg", data: thumb },
      { name: "Broken/recipe.json", data: '{ "name": "Broken", "recipeIngredient": [' },
      { name: "Broken/full.jpg", data: full },
      { name: "__MACOSX/Lentil Soup/._recipe.json", data: Buffer.from([0, 5, 22, 7]) },
    ]);
    entries = await collect("nextcloud", path);
  });

  it("reads HowToStep steps, ISO durations, a numeric yield, keywords as tags, tools, nutrition, dates and full.jpg", () => {
    const soup = byName(entries.filter((e) => e.ok)).get("Lentil Soup")!;
    expect(soup.recipe.description).toBe("A warming soup & a good lunch.");
    expect(soup.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "250 g red lentils",
      "1 onion, chopped",
      "1 l vegetable stock",
    ]);
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "", text: "Soften the onion in a large pot." },
      { title: "", text: "Add the lentils and the stock." },
      { title: "", text: "Simmer for 40 minutes, then blend." },
    ]);
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("1 hour 30 minutes");
    expect(soup.recipe.totalTime).toBe("1 hour 45 minutes");
    expect(soup.recipe.recipeYield).toBe("4");
    expect(names(soup.recipe.recipeCategory)).toEqual(["Soup"]);
    expect(names(soup.recipe.tags)).toEqual(["Vegan", "Winter", "Lentils"]);
    expect(names(soup.recipe.tools as Array<{ name: string }>)).toEqual(["large pot", "stick blender"]);
    expect(soup.recipe.nutrition).toEqual({
      calories: "250",
      fatContent: "4",
      sodiumContent: "1200.0",
      proteinContent: "14",
    });
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.recipe.dateAdded).toBe("2023-01-15");
    expect(soup.entry.sourceId).toBe("nextcloud:812");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(full)).toBe(true);
  });

  it("reads string steps, a text yield, a list of categories, zero-hour durations and an epoch creation date; no image when the folder has none", () => {
    const c = byName(entries.filter((e) => e.ok)).get("Crêpes au sucre")!;
    expect(c.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Mélanger la farine et les œufs.",
      "Ajouter le lait peu à peu.",
      "Cuire à la poêle.",
    ]);
    expect(c.recipe.recipeYield).toBe("12 crêpes");
    expect(names(c.recipe.recipeCategory)).toEqual(["Dessert", "Breakfast"]);
    expect(c.recipe.tags).toEqual([]);
    expect(c.recipe.prepTime).toBe("10 minutes");
    expect(c.recipe.performTime).toBe("20 minutes");
    expect(c.recipe.totalTime).toBe("30 minutes");
    expect(c.recipe.nutrition).toEqual({});
    expect(c.recipe.orgURL).toBeNull();
    expect(c.recipe.dateAdded).toBe("2020-12-08");
    expect(c.entry.sourceId).toBe("nextcloud:913");
    expect(imageBytes(c.entry)).toBeNull();
  });

  it("titles the first step of each HowToSection, names a nameless recipe after its folder, and takes no thumbnail as the image", () => {
    const b = byName(entries.filter((e) => e.ok)).get("Country Bread")!;
    expect(b.recipe.name).toBe("Country Bread");
    expect(b.recipe.recipeInstructions).toEqual([
      { title: "Dough", text: "Mix everything." },
      { title: "", text: "Leave overnight." },
      { title: "Baking", text: "Bake at 250 °C for 45 minutes." },
    ]);
    expect(b.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "500 g flour",
      "350 g water",
      "10 g salt",
      "1 g yeast",
    ]);
    expect(names(b.recipe.tags)).toEqual(["Bread"]);
    expect(b.recipe.recipeCategory).toEqual([]);
    expect(b.recipe.dateAdded).toBeUndefined();
    expect(imageBytes(b.entry)).toBeNull();
  });

  it("fails a recipe.json that is not JSON alone, naming its folder and the file", () => {
    expect(entries).toHaveLength(4);
    expect(entries.filter((e) => !e.ok)).toEqual([
      {
        ok: false,
        name: "Broken",
        error: expect.stringMatching(/^Error: Broken\/recipe\.json is not valid JSON \(/),
      },
    ]);
  });

  it("reads the Recipes folder as Nextcloud's Files app zips it, one level deeper", async () => {
    const path = await scratch.zip("Recipes.zip", [
      { name: "Recipes/", data: "" },
      { name: "Recipes/Lentil Soup/recipe.json", data: json(lentilSoup) },
      { name: "Recipes/Lentil Soup/full.jpg", data: full },
      { name: "Recipes/Lentil Soup/thumb.jpg", data: thumb },
      { name: "Recipes/Crêpes au sucre/recipe.json", data: json(crepes) },
    ]);
    const r = byName(await collect("nextcloud", path));
    expect([...r.keys()].sort()).toEqual(["Crêpes au sucre", "Lentil Soup"]);
    expect(Buffer.from(imageBytes(r.get("Lentil Soup")!.entry)!).equals(full)).toBe(true);
    expect(imageBytes(r.get("Crêpes au sucre")!.entry)).toBeNull();
    expect(names(r.get("Lentil Soup")!.recipe.tags)).toEqual(["Vegan", "Winter", "Lentils"]);
  });

  it("fails a recipe.json that holds no recipe object with a message saying so", async () => {
    const path = await scratch.zip("odd.zip", [
      { name: "Odd/recipe.json", data: "null" },
      { name: "Tea/recipe.json", data: json({ name: "Tea", recipeInstructions: "Steep." }) },
    ]);
    const entries = await collect("nextcloud", path);
    expect(entries.find((e) => e.name === "Odd")).toEqual({
      ok: false,
      name: "Odd",
      error: "Error: Odd/recipe.json does not hold a recipe object",
    });
    expect(entries.find((e) => e.name === "Tea")).toMatchObject({ ok: true });
  });

  it("refuses an archive with no recipe.json as not a Nextcloud Cookbook export", async () => {
    const path = await scratch.zip("not-nextcloud.zip", [{ name: "notes.txt", data: "hello" }]);
    await expect(collect("nextcloud", path)).rejects.toThrow(
      "This archive is not a Nextcloud Cookbook export: no recipe.json was found. Check the migration type.",
    );
  });
});
