/**
 * The pre-v1 Mealie reader on exports written here: the v0.4/v0.5 layout (`recipes/<slug>/<slug>.json`,
 * snake_case keys, `images/original.webp`), ingredients with amounts kept apart from the note, the
 * v0.1–v0.3 layout (camelCase keys, every picture in one `images/` folder), and files that are no recipe.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-mealie-alpha-");
const webp = await picture("webp", 32, 24, "#b5651d");
const minWebp = await picture("webp", 8, 6, "#b5651d");
const jpeg = await picture("jpeg", 16, 16, "#c0392b");

const json = (v: unknown) => JSON.stringify(v, null, 4);

const lentilSoup = {
  id: 7,
  name: "Lentil Soup",
  slug: "lentil-soup",
  image: "lentil-soup",
  description: "Warming and cheap.",
  recipe_category: ["Soup", "Weeknight"],
  tags: [{ name: "vegetarian", slug: "vegetarian" }, ""],
  rating: 4,
  date_added: "2021-11-02",
  date_updated: "2021-11-03 10:15:00.123456",
  recipe_yield: "4 servings",
  recipe_ingredient: [
    { title: "Soup", note: "250 g brown lentils", unit: null, food: null, disable_amount: true, quantity: 1 },
    { title: null, note: "1 onion, diced", unit: null, food: null, disable_amount: true, quantity: 1 },
    { title: "To serve", note: "Greek yoghurt", unit: null, food: null, disable_amount: true, quantity: 1 },
  ],
  recipe_instructions: [
    { title: "", text: "Soften the onion in a little oil." },
    { title: "Simmer", text: "Add the lentils and stock; simmer 35 minutes." },
  ],
  nutrition: { calories: "320", fat_content: 9, protein_content: "18", sodium_content: null },
  tools: ["Large pot"],
  total_time: "45 Minutes",
  prep_time: "10 Minutes",
  perform_time: "35 Minutes",
  settings: { public: true, show_nutrition: true },
  assets: [{ name: "shopping", icon: "mdi-file", file_name: "shopping.json" }],
  notes: [{ title: "Storage", text: "Freezes well." }],
  org_url: "https://example.org/lentil-soup",
  extras: { source_book: "Family notebook" },
  comments: [],
};

// Amounts enabled: the quantity, unit and food sit beside a note that may be empty.
const crepes = {
  name: "Crêpes au sucre",
  slug: "crepes-au-sucre",
  recipe_category: [{ name: "Dessert", slug: "dessert" }],
  tags: [],
  rating: null,
  recipe_yield: 12,
  recipe_ingredient: [
    {
      title: null,
      note: "",
      unit: { name: "g" },
      food: { name: "farine" },
      disable_amount: false,
      quantity: 250,
    },
    {
      title: null,
      note: "cold",
      unit: { name: "l" },
      food: { name: "lait" },
      disable_amount: false,
      quantity: 0.5,
    },
    { title: null, note: "", unit: null, food: { name: "œufs" }, disable_amount: false, quantity: 3 },
  ],
  recipe_instructions: [{ title: "", text: "Whisk, rest, cook thin." }],
  nutrition: {},
  total_time: null,
  org_url: null,
  extras: [],
  notes: [],
};

// v0.1–v0.3: camelCase keys, `categories`, `orgURL`, a picture named in `image` in the top images/ folder.
const tomatoSalad = {
  _id: 3,
  name: "Tomato Salad",
  slug: "tomato-salad",
  image: "tomato-salad.jpg",
  categories: ["Salad"],
  tags: ["summer"],
  dateAdded: "2021-02-03T18:04:05",
  recipeYield: "2",
  recipeIngredient: ["4 ripe tomatoes", "olive oil, salt"],
  recipeInstructions: [{ "@type": "HowToStep", text: "Slice, season, dress." }],
  totalTime: "PT10M",
  orgURL: "https://example.org/tomato-salad",
  extras: [],
};
const greenSalad = {
  name: "Green Salad",
  slug: "green-salad",
  image: null,
  recipeIngredient: ["1 lettuce"],
  recipeInstructions: [{ text: "Wash and dress." }],
};

describe("mealie_alpha reader on Larder's own exports", () => {
  it("v0.4/v0.5 layout: snake_case fields kept as Mealie stored them; the original picture, not its copies", async () => {
    const root = "mealie_2022-Jan-05";
    const path = await scratch.zip("mealie-v05.zip", [
      { name: `${root}/recipes/lentil-soup/lentil-soup.json`, data: json(lentilSoup) },
      { name: `${root}/recipes/lentil-soup/images/min-original.webp`, data: minWebp, store: true },
      { name: `${root}/recipes/lentil-soup/images/original.webp`, data: webp, store: true },
      { name: `${root}/recipes/lentil-soup/images/tiny-original.webp`, data: minWebp, store: true },
      // An attached file is not a recipe, even a JSON one.
      { name: `${root}/recipes/lentil-soup/assets/shopping.json`, data: '["lentils"]' },
      { name: `${root}/recipes/crepes-au-sucre/crepes-au-sucre.json`, data: json(crepes) },
      { name: `${root}/users/users.json`, data: "[]" },
      { name: `${root}/settings/settings.json`, data: "{}" },
      { name: `${root}/recipes/.DS_Store`, data: "junk" },
    ]);
    const entries = await collect("mealie_alpha", path);
    expect(entries.map((e) => e.name).sort()).toEqual(["Crêpes au sucre", "Lentil Soup"]);
    const r = byName(entries);

    const soup = r.get("Lentil Soup")!;
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: "Soup", note: "250 g brown lentils" },
      { title: null, note: "1 onion, diced" },
      { title: "To serve", note: "Greek yoghurt" },
    ]);
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "", text: "Soften the onion in a little oil." },
      { title: "Simmer", text: "Add the lentils and stock; simmer 35 minutes." },
    ]);
    expect(names(soup.recipe.recipeCategory)).toEqual(["Soup", "Weeknight"]);
    expect(names(soup.recipe.tags)).toEqual(["vegetarian"]);
    expect(names(soup.recipe.tools as Array<{ name: string }>)).toEqual(["Large pot"]);
    expect(soup.recipe.nutrition).toEqual({ calories: "320", fatContent: "9", proteinContent: "18" });
    expect(soup.recipe.recipeYield).toBe("4 servings");
    expect(soup.recipe.totalTime).toBe("45 Minutes");
    expect(soup.recipe.prepTime).toBe("10 Minutes");
    expect(soup.recipe.performTime).toBe("35 Minutes");
    expect(soup.recipe.rating).toBe(4);
    expect(soup.recipe.dateAdded).toBe("2021-11-02");
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.recipe.notes).toEqual([{ title: "Storage", text: "Freezes well." }]);
    expect(soup.recipe.extras).toEqual({ source_book: "Family notebook" });
    expect(soup.entry.sourceId).toBe("mealie:lentil-soup");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(webp)).toBe(true);
    expect(soup.entry.imported.image).toMatchObject({ contentType: "image/webp" });

    const c = r.get("Crêpes au sucre")!;
    expect(c.recipe.recipeIngredient).toEqual([
      { title: null, note: "250 g farine" },
      { title: null, note: "0.5 l lait cold" },
      { title: null, note: "3 œufs" },
    ]);
    expect(names(c.recipe.recipeCategory)).toEqual(["Dessert"]);
    expect(c.recipe.recipeYield).toBe("12");
    expect(c.recipe.rating).toBeUndefined();
    expect(c.recipe.totalTime).toBeNull();
    expect(c.recipe.orgURL).toBeNull();
    expect(c.recipe.extras).toBeUndefined();
    expect(c.recipe.dateAdded).toBeUndefined();
    expect(imageBytes(c.entry)).toBeNull();
  });

  it("v0.1–v0.3 layout: camelCase keys, ingredients as strings, the picture its `image` names in the shared images/", async () => {
    const path = await scratch.zip("mealie-v02.zip", [
      { name: "recipes/tomato-salad.json", data: json(tomatoSalad) },
      { name: "recipes/green-salad.json", data: `\uFEFF${json(greenSalad)}` },
      { name: "images/tomato-salad.jpg", data: jpeg, store: true },
      { name: "images/some-other-recipe.jpg", data: webp, store: true },
      { name: "themes/themes.json", data: "[]" },
    ]);
    const r = byName(await collect("mealie_alpha", path));
    const t = r.get("Tomato Salad")!;
    expect(t.recipe.recipeIngredient).toEqual([
      { title: null, note: "4 ripe tomatoes" },
      { title: null, note: "olive oil, salt" },
    ]);
    expect(t.recipe.recipeInstructions).toEqual([{ title: "", text: "Slice, season, dress." }]);
    expect(names(t.recipe.recipeCategory)).toEqual(["Salad"]);
    expect(names(t.recipe.tags)).toEqual(["summer"]);
    expect(t.recipe.recipeYield).toBe("2");
    expect(t.recipe.totalTime).toBe("10 minutes");
    expect(t.recipe.dateAdded).toBe("2021-02-03");
    expect(t.recipe.orgURL).toBe("https://example.org/tomato-salad");
    expect(Buffer.from(imageBytes(t.entry)!).equals(jpeg)).toBe(true);
    // Another recipe's picture in the shared folder is never taken.
    const g = r.get("Green Salad")!;
    expect(g.recipe.recipeIngredient).toEqual([{ title: null, note: "1 lettuce" }]);
    expect(imageBytes(g.entry)).toBeNull();
  });

  it("a file that is not JSON, or not a recipe object, fails alone with the reason; the others import", async () => {
    const path = await scratch.zip("mealie-broken.zip", [
      { name: "recipes/lentil-soup/lentil-soup.json", data: json(lentilSoup) },
      {
        name: "recipes/burnt-toast/burnt-toast.json",
        data: '{"name": "Burnt Toast", "recipe_ingredient": [',
      },
      { name: "recipes/odd/odd.json", data: '["not", "a", "recipe"]' },
    ]);
    const entries = await collect("mealie_alpha", path);
    expect(entries).toHaveLength(3);
    expect(entries.find((e) => e.name === "burnt-toast.json")).toEqual({
      ok: false,
      name: "burnt-toast.json",
      error: expect.stringMatching(/^JSONDecodeError: /),
    });
    expect(entries.find((e) => e.name === "odd.json")).toEqual({
      ok: false,
      name: "odd.json",
      error: "Error: the file holds no recipe (a JSON object was expected)",
    });
    expect(entries.find((e) => e.name === "Lentil Soup")).toMatchObject({ ok: true });
  });

  it("an archive with no recipes/ folder is refused as the wrong type", async () => {
    const path = await scratch.zip("not-mealie.zip", [{ name: "recipes.html", data: "<html></html>" }]);
    await expect(collect("mealie_alpha", path)).rejects.toThrow(/not a Mealie \(pre-v1\) export/);
  });
});
