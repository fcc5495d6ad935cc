/**
 * The Chowdown reader on sites written here: a Jekyll site zipped with its top folder, recipes whose
 * front matter takes the shapes hand-written YAML takes (sections, `key: value` lines, lower-case ISO
 * times, pictures in subfolders, Windows line endings), component recipes, and a file that does not parse.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, imageBytes, names, picture, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-chowdown-");
const soupJpeg = await picture("jpeg", 24, 16, "#b5651d");
const crepesJpeg = await picture("jpeg", 16, 16, "#f3e5ab");

const lentilSoup = `---

layout: recipe
title:  "Lentil Soup"
image: lentil-soup.jpg
tags: soups, vegetarian
preptime: pt15m
cooktime: PT40M
yield: 4
nutrition:
  calories: 320
  proteinContent: 18 g

ingredients:
- 250 g brown lentils, rinsed
- 1 onion, diced
- 2 carrots, diced
- 1.5 l vegetable stock

directions:
- Soften the onion and carrots in a little oil
- Add the lentils and stock, simmer for 35 minutes
- Season and serve

---

A soup for cold evenings. It keeps for [three days](https://example.org/keeping) in the fridge.

It freezes well too.
`;

// Saved on Windows: a BOM and CRLF line endings.
const crepes = `\uFEFF${[
  "---",
  "layout: recipe",
  'title: "Crêpes au sucre"',
  "image: /images/desserts/crêpes.jpg",
  "tags: [dessert, French]",
  "ingredients:",
  "- Batter:",
  "    - 250 g farine",
  "    - 3 œufs",
  "    - 500 ml lait",
  "- To serve:",
  "- sucre en poudre",
  "- Optional: a squeeze of lemon",
  "directions:",
  "- Whisk the batter and let it rest for an hour",
  "- Cook thin crêpes in a buttered pan",
  "---",
  "",
  "Le goûter du dimanche.",
  "",
].join("\r\n")}`;

const lemonTart = `---
layout: recipe
title: "Lemon Tart"
image: [lemon-tart.jpg]
tags: desserts

directions:
- Blind-bake the pastry case
- Fill with the curd and chill for two hours

components:
- Shortcrust Pastry
- Lemon Curd
- Candied Peel
---
`;

const pastry = `---
layout: recipe
title: "Shortcrust Pastry"
ingredients:
- 200 g plain flour
- 100 g cold butter
directions:
- Rub the butter into the flour
- Bind with cold water and rest
---
`;

const curd = `---
layout: recipe
title: "Lemon Curd"
ingredients:
- 3 lemons, zest and juice
- 150 g sugar
directions:
- Whisk everything over a low heat until thick
---
`;

const greenSalad = `---
layout: recipe
title: Green Salad
image: https://example.org/pictures/green-salad.jpg
directions: |
  Wash the leaves.
  Dress just before serving.
---
`;

// An unclosed quote: the YAML does not parse.
const broken = `---
layout: recipe
title: "Burnt Toast
ingredients: [bread
---
`;

describe("chowdown reader on Larder's own sites", () => {
  it("reads title, ingredients, directions, tags, times, yield, nutrition, the body and the picture from a wrapped site", async () => {
    const path = await scratch.zip("cookbook.zip", [
      { name: "my-cookbook-gh-pages/_config.yml", data: "title: My cookbook\n" },
      { name: "my-cookbook-gh-pages/_recipes/lentil-soup.md", data: lentilSoup },
      { name: "my-cookbook-gh-pages/images/lentil-soup.jpg", data: soupJpeg, store: true },
      { name: "__MACOSX/my-cookbook-gh-pages/_recipes/._lentil-soup.md", data: "junk" },
    ]);
    const entries = await collect("chowdown", path);
    expect(entries).toHaveLength(1);
    const soup = byName(entries).get("Lentil Soup")!;
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: null, note: "250 g brown lentils, rinsed" },
      { title: null, note: "1 onion, diced" },
      { title: null, note: "2 carrots, diced" },
      { title: null, note: "1.5 l vegetable stock" },
    ]);
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "", text: "Soften the onion and carrots in a little oil" },
      { title: "", text: "Add the lentils and stock, simmer for 35 minutes" },
      { title: "", text: "Season and serve" },
    ]);
    expect(names(soup.recipe.tags)).toEqual(["Soups", "Vegetarian"]);
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("40 minutes");
    expect(soup.recipe.totalTime).toBeNull();
    expect(soup.recipe.recipeYield).toBe("4");
    expect(soup.recipe.nutrition).toEqual({ calories: "320", proteinContent: "18" });
    expect(soup.recipe.description).toBe(
      "A soup for cold evenings. It keeps for [three days](https://example.org/keeping) in the fridge.\n\nIt freezes well too.",
    );
    expect(soup.entry.sourceId).toBe("chowdown:lentil-soup");
    expect(Buffer.from(imageBytes(soup.entry)!).equals(soupJpeg)).toBe(true);
    expect(soup.entry.imported.image).toMatchObject({ contentType: "image/jpeg" });
  });

  it("reads sections, 'key: value' lines, a picture in a subfolder named in another Unicode form, a BOM and CRLF", async () => {
    const path = await scratch.zip("crepes.zip", [
      { name: "_recipes/crêpes-au-sucre.md", data: crepes },
      // A Mac stores the name decomposed: "e" + combining circumflex.
      { name: "images/desserts/cre\u0302pes.jpg", data: crepesJpeg, store: true },
      { name: "images/crêpes.jpg", data: soupJpeg, store: true },
    ]);
    const r = byName(await collect("chowdown", path));
    const c = r.get("Crêpes au sucre")!;
    expect(c.recipe.recipeIngredient).toEqual([
      { title: "Batter", note: "250 g farine" },
      { title: null, note: "3 œufs" },
      { title: null, note: "500 ml lait" },
      { title: "To serve", note: "sucre en poudre" },
      { title: null, note: "Optional: a squeeze of lemon" },
    ]);
    expect(c.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Whisk the batter and let it rest for an hour",
      "Cook thin crêpes in a buttered pan",
    ]);
    expect(names(c.recipe.tags)).toEqual(["Dessert", "French"]);
    expect(c.recipe.description).toBe("Le goûter du dimanche.");
    // The path under images/ wins over a picture of the same name elsewhere.
    expect(Buffer.from(imageBytes(c.entry)!).equals(crepesJpeg)).toBe(true);
  });

  it("a component recipe brings in its components' ingredients and directions as sections", async () => {
    const path = await scratch.zip("components.zip", [
      { name: "site/_recipes/lemon-tart.md", data: lemonTart },
      { name: "site/_components/shortcrust-pastry.md", data: pastry },
      { name: "site/_components/lemon-curd.md", data: curd },
    ]);
    const entries = await collect("chowdown", path);
    // Components are parts of recipes, not recipes of their own.
    expect(entries.map((e) => e.name)).toEqual(["Lemon Tart"]);
    const tart = byName(entries).get("Lemon Tart")!;
    expect(tart.recipe.recipeIngredient).toEqual([
      { title: "Shortcrust Pastry", note: "200 g plain flour" },
      { title: null, note: "100 g cold butter" },
      { title: "Lemon Curd", note: "3 lemons, zest and juice" },
      { title: null, note: "150 g sugar" },
      // A component the site does not have is kept by name.
      { title: null, note: "Candied Peel" },
    ]);
    expect(tart.recipe.recipeInstructions).toEqual([
      { title: "", text: "Blind-bake the pastry case" },
      { title: "", text: "Fill with the curd and chill for two hours" },
      { title: "Shortcrust Pastry", text: "Rub the butter into the flour" },
      { title: "", text: "Bind with cold water and rest" },
      { title: "Lemon Curd", text: "Whisk everything over a low heat until thick" },
    ]);
    expect(names(tart.recipe.tags)).toEqual(["Desserts"]);
    expect(tart.recipe.description).toBe("");
    // The picture it names is not in the archive.
    expect(imageBytes(tart.entry)).toBeNull();
  });

  it("a picture given as a URL is kept as a URL; directions as one block of lines; no ingredients at all", async () => {
    const path = await scratch.zip("salad.zip", [{ name: "_recipes/green-salad.md", data: greenSalad }]);
    const salad = byName(await collect("chowdown", path)).get("Green Salad")!;
    expect(salad.recipe.recipeIngredient).toEqual([]);
    expect(salad.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Wash the leaves.",
      "Dress just before serving.",
    ]);
    expect(salad.entry.imported.image).toEqual({ url: "https://example.org/pictures/green-salad.jpg" });
  });

  it("a recipe whose front matter does not parse fails alone, named by its file, and the others import", async () => {
    const path = await scratch.zip("broken.zip", [
      { name: "_recipes/burnt-toast.md", data: broken },
      { name: "_recipes/lentil-soup.md", data: lentilSoup },
      { name: "images/lentil-soup.jpg", data: soupJpeg },
    ]);
    const entries = await collect("chowdown", path);
    expect(entries).toHaveLength(2);
    const bad = entries.find((e) => !e.ok);
    expect(bad).toEqual({
      ok: false,
      name: "burnt-toast",
      error: expect.stringMatching(/^YAMLParseError: /),
    });
    const good = entries.find((e) => e.ok)!;
    expect(good.name).toBe("Lentil Soup");
    expect(good.ok && good.imported.image).toBeTruthy();
  });

  it("an archive with no _recipes folder is refused as the wrong type", async () => {
    const path = await scratch.zip("not-chowdown.zip", [{ name: "recipes/lentil-soup.json", data: "{}" }]);
    await expect(collect("chowdown", path)).rejects.toThrow(
      /not a Chowdown export: no _recipes\/\*\.md file/,
    );
  });
});
