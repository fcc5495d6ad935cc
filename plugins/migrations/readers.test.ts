/**
 * Each format reader on its archive: Mealie's upstream migration fixtures (skipped without them, except
 * under CI) and Larder's own fixtures for the formats upstream has none of (Recipe Keeper, Cooklang).
 * Field values are checked, not only counts.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  byName,
  collect,
  fixturesPresent,
  FIXTURES,
  imageBytes,
  MIGRATIONS_DIR,
  names,
} from "./test-support.js";

const own = (p: string) => fileURLToPath(new URL(p, import.meta.url));

describe.skipIf(!fixturesPresent)("format readers on Mealie's fixtures", () => {
  it("nextcloud: schema.org fields, ISO durations in words, keywords as tags, full.jpg as the image", async () => {
    const r = byName(await collect("nextcloud", `${MIGRATIONS_DIR}nextcloud.zip`));
    expect([...r.keys()].sort()).toEqual([
      "Air Fryer Shrimp",
      "Chicken Parmigiana",
      "Skillet Shepherd's Pie",
    ]);
    const pie = r.get("Skillet Shepherd's Pie")!;
    expect(pie.recipe.prepTime).toBe("15 minutes");
    expect(pie.recipe.performTime).toBe("1 hour 10 minutes");
    expect(pie.recipe.totalTime).toBe("1 hour 25 minutes");
    expect(pie.recipe.recipeYield).toBe("1");
    expect(names(pie.recipe.tags)).toEqual(["Cottage Pie", "Shepherd's Pie", "Skillet Shepherd's Pie"]);
    expect(names(pie.recipe.recipeCategory)).toEqual(["Main Course"]);
    expect(pie.recipe.nutrition).toMatchObject({
      calories: "252",
      sodiumContent: "1165",
      cholesterolContent: "63",
      fiberContent: "2",
    });
    expect(pie.recipe.orgURL).toBe("https://www.jocooks.com/recipes/skillet-shepherds-pie/");
    expect(pie.recipe.recipeIngredient[1].note).toBe("1 1/4 lb ground beef (lean)");
    expect(pie.recipe.recipeInstructions).toHaveLength(8);
    expect(imageBytes(pie.entry)).toBeNull();
    const shrimp = r.get("Air Fryer Shrimp")!;
    const img = imageBytes(shrimp.entry)!;
    expect(img.length).toBe(40193);
    expect([img[0], img[1]]).toEqual([0xff, 0xd8]);
  });

  it("chowdown: front matter title, ingredients, directions and tags; the page body as description; images/", async () => {
    const r = byName(await collect("chowdown", `${MIGRATIONS_DIR}chowdown.zip`));
    const okra = r.get("Roasted Okra")!;
    expect(okra.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "1 bunch of okra",
      "salt, pepper, etc to taste",
    ]);
    expect(okra.recipe.recipeInstructions).toHaveLength(4);
    expect(okra.recipe.recipeInstructions[1].text).toBe("Slice in half lengthwise");
    expect(names(okra.recipe.tags)).toEqual(["Sides", "Vegetables"]);
    expect(okra.recipe.description).toMatch(/^I love me some okra/);
    expect(imageBytes(okra.entry)!.length).toBe(1008247);
  });

  it("copymethat: one recipe per div, tags, rating, made-this, notes, images/", async () => {
    const r = byName(await collect("copymethat", `${MIGRATIONS_DIR}copymethat.zip`));
    expect(r.size).toBe(3);
    const spam = r.get("Spam Zoodles")!;
    expect(names(spam.recipe.tags)).toEqual(["Dinner", "Easy", "Lunch", "Spam", "Stovetop"]);
    expect(spam.recipe.rating).toBe(5);
    expect(typeof spam.recipe.lastMade).toBe("string");
    expect(spam.recipe.recipeIngredient[0].note).toBe("2 zucchinis");
    expect(spam.recipe.recipeInstructions).toHaveLength(4);
    expect(spam.recipe.orgURL).toBe("https://www.allrecipes.com/recipe/19958/spam-on-the-go/print/");
    expect(imageBytes(spam.entry)!.length).toBe(15348);
    const shells = r.get("Classic Stuffed Shells")!;
    expect(shells.recipe.recipeYield).toBe("6");
    expect(shells.recipe.lastMade).toBeUndefined();
    const chicken = r.get("Crockpot Cilantro Lime Chicken")!;
    expect(chicken.recipe.notes).toHaveLength(3);
  });

  it("paprika: gzipped JSON inside the zip; categories as tags, times, servings, source, created date, photo", async () => {
    const r = byName(await collect("paprika", `${MIGRATIONS_DIR}paprika.zip`));
    expect(r.size).toBe(5);
    const rolls = r.get("Zucchini Rolls with Goat Cheese and Mint")!;
    expect(rolls.recipe.prepTime).toBe("30 minutes");
    expect(rolls.recipe.performTime).toBe("30 minutes");
    expect(rolls.recipe.recipeYield).toBe("about 20 rolls");
    expect(names(rolls.recipe.tags)).toEqual(["Grill", "Käse", "Vegetarisch", "Vorspeißen"]);
    expect(rolls.recipe.dateAdded).toBe("2014-07-03");
    expect(rolls.recipe.orgURL).toMatch(/^http:\/\/www\.seriouseats\.com\/recipes\/2012\/03\/zucchini-rolls/);
    const photo = imageBytes(rolls.entry)!;
    expect([photo[0], photo[1]]).toEqual([0xff, 0xd8]);
    expect(r.get("Zucchini-Kartoffel-Frittata")!.entry.sourceId).toBe(
      "paprika:32B323C7-C4AE-410A-952C-6569762D5A3D-1353-00000A23B06502DC",
    );
  });

  it("mealie_alpha: snake_case keys, nutrition kept as Mealie stored it, categories, webp original", async () => {
    const r = byName(await collect("mealie_alpha", `${MIGRATIONS_DIR}mealie.zip`));
    expect(r.size).toBe(3);
    const stew = r.get("Old-Fashioned Beef Stew")!;
    expect(stew.recipe.nutrition).toEqual({
      calories: "",
      fatContent: "12",
      proteinContent: "35",
      carbohydrateContent: "54",
      fiberContent: "5",
      sodiumContent: "1604",
      sugarContent: "7",
    });
    expect(stew.recipe.recipeYield).toBe("4 serving(s)");
    expect(stew.recipe.totalTime).toBe("2 Hours 30 Minutes");
    expect(stew.recipe.orgURL).toBe("https://cooking.nytimes.com/recipes/4735-old-fashioned-beef-stew");
    expect(stew.recipe.dateAdded).toBe("2021-10-26");
    const cookies = r.get("Levain Chocolate Chip Cookies")!;
    expect(names(cookies.recipe.recipeCategory)).toEqual(["Dessert", "Cookies"]);
    const webp = imageBytes(cookies.entry)!;
    expect(Buffer.from(webp.subarray(8, 12)).toString("latin1")).toBe("WEBP");
    expect(names(r.get("PIZZA DOUGH — Basics With Babish")!.recipe.tags)).toEqual(["babish"]);
  });

  it("tandoor: a zip of zips; ingredients from steps, keywords as tags, waiting time, image", async () => {
    const r = byName(await collect("tandoor", `${MIGRATIONS_DIR}tandoor.zip`));
    const chili = r.get("“Texas Red” Chili")!;
    expect(chili.recipe.recipeIngredient[0].note).toBe("2 oz New Mexico chile, dry 57 g");
    expect(chili.recipe.recipeIngredient.at(-1)!.note).toBe("Scallions thinly sliced on the diagonal");
    expect(names(chili.recipe.tags)).toEqual(["American", "Course: Main", "Southwest", "Technique: Cocotte"]);
    expect(chili.recipe.performTime).toBe("2 minutes");
    expect(chili.recipe.prepTime).toBeNull();
    expect(chili.recipe.recipeInstructions[0].text).toMatch(/^Peheat the oven/);
    expect(imageBytes(chili.entry)!.length).toBeGreaterThan(1000);
  });

  it("plantoeat: CSV columns; headings as sections; course and cuisine as categories; nutrition; created date", async () => {
    const r = byName(await collect("plantoeat", `${MIGRATIONS_DIR}plantoeat.zip`));
    const t = r.get("Test Recipe")!;
    expect(t.recipe.recipeIngredient).toEqual([
      { title: "Heading", note: "2 itm Test, note" },
      { title: "Heading2", note: "3 pkg Two, note2" },
    ]);
    expect(names(t.recipe.recipeCategory)).toEqual(["Main Course", "American"]);
    expect(names(t.recipe.tags)).toEqual(["Allergen-Friendly", "Cheap", "Test", "Beans"]);
    expect(t.recipe.nutrition).toEqual({
      calories: "13",
      fatContent: "16",
      saturatedFatContent: "17",
      cholesterolContent: "18",
      sodiumContent: "19",
      sugarContent: "22",
      carbohydrateContent: "20",
      fiberContent: "21",
      proteinContent: "23",
    });
    expect(t.recipe.prepTime).toBe("1 hour 15 minutes");
    expect(t.recipe.totalTime).toBe("2 hours 30 minutes");
    expect(t.recipe.recipeYield).toBe("1 loaf");
    expect(t.recipe.recipeServings).toBe(7);
    expect(t.recipe.dateAdded).toBe("2023-10-13");
    expect(t.recipe.rating).toBe(3);
    expect(t.entry.imported.image).toEqual({
      url: expect.stringMatching(/^https:\/\/plantoeat\.s3\.amazonaws\.com\//),
    });
    expect(r.get("Test Recipe2")!.recipe.recipeIngredient).toHaveLength(2);
  });

  it("myrecipebox: a bare CSV; minutes as words; ';' lists; nutrition lines; a row with one cell too many", async () => {
    const r = byName(await collect("myrecipebox", `${MIGRATIONS_DIR}myrecipebox.csv`));
    const p = r.get("Beef & Cheese Piroshki")!;
    expect(p.recipe.prepTime).toBe("1 hour 30 minutes");
    expect(p.recipe.totalTime).toBe("1 hour 55 minutes");
    expect(names(p.recipe.recipeCategory)).toEqual(["The Main Course", "Russian"]);
    expect(p.recipe.nutrition).toMatchObject({
      calories: "334",
      transFatContent: "1",
      unsaturatedFatContent: "6",
      sodiumContent: "539",
    });
    expect(p.recipe.orgURL).toBe("https://tatyanaseverydayfood.com/meat-cheese-piroshki/");
    const salad = r.get("Apple Spinach Salad")!;
    expect(salad.recipe.orgURL).toBe("https://www.gimmesomeoven.com/my-favorite-apple-spinach-salad/");
    expect(salad.entry.imported.image).toEqual({
      url: "https://www.gimmesomeoven.com/wp-content/uploads/2016/09/Apple-Spinach-Recipe-3.jpg",
    });
    expect(names(salad.recipe.tags)).toEqual(["Salad"]);
  });

  it("every archive in the fixture folder reads with no failed entry", async () => {
    const cases = (
      JSON.parse(readFileSync(`${FIXTURES}derived/test-expectations.json`, "utf8")) as {
        migrationCases: Array<{ migrationType: string; archive: string | null }>;
      }
    ).migrationCases;
    for (const c of cases.filter((x) => x.archive)) {
      const entries = await collect(c.migrationType, `${FIXTURES}${c.archive}`);
      expect(entries.length, c.migrationType).toBeGreaterThan(0);
      expect(
        entries.filter((e) => !e.ok),
        c.migrationType,
      ).toEqual([]);
    }
  });
});

describe("format readers on Larder's own fixtures", () => {
  it("recipekeeper: microdata fields, HTML in text, entities, nutrition in grams, photo0; a sparse recipe too", async () => {
    const r = byName(await collect("recipekeeper", own("./recipekeeper/fixture")));
    const bread = r.get("Zucchini Bread")!;
    expect(bread.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "3 cups all-purpose flour",
      "1 tsp salt & 1 tsp baking soda",
      "2 cups grated zucchini",
      "½ cup crème fraîche",
    ]);
    expect(bread.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Heat the oven to 175 °C.",
      "Mix the dry ingredients.",
      "Fold in the zucchini.",
      "Bake for 1 hour.",
    ]);
    expect(names(bread.recipe.tags)).toEqual(["Dessert", "Snack"]);
    expect(names(bread.recipe.recipeCategory)).toEqual(["Baking", "Summer"]);
    expect(bread.recipe.prepTime).toBe("20 minutes");
    expect(bread.recipe.performTime).toBe("1 hour");
    expect(bread.recipe.totalTime).toBe("1 hour 20 minutes");
    expect(bread.recipe.recipeYield).toBe("2 loaves");
    expect(bread.recipe.rating).toBe(4);
    expect(bread.recipe.nutrition).toMatchObject({
      calories: "196",
      sodiumContent: "200.0",
      saturatedFatContent: "1.5",
    });
    expect(bread.recipe.orgURL).toBe("https://example.org/zucchini-bread");
    expect(imageBytes(bread.entry)).not.toBeNull();
    const salad = r.get("Quick Salad")!;
    expect(salad.recipe.recipeIngredient.map((i) => i.note)).toEqual(["Lettuce", "Olive oil", "Lemon"]);
    expect(salad.recipe.notes).toEqual([{ title: "Source", text: "Grandma's notebook" }]);
    expect(salad.recipe.prepTime).toBeNull();
    expect(imageBytes(salad.entry)).toBeNull();
  });

  it("cooklang: front matter, >> metadata, sections, timers, cookware, notes, comments, Windows-1252 text, image beside", async () => {
    const r = byName(await collect("cooklang", own("./cooklang/fixture")));
    const f = r.get("Zucchini Fritters")!;
    expect(f.recipe.recipeIngredient).toEqual([
      { title: "Batter", note: "500 g zucchini" },
      { title: null, note: "1 tsp salt" },
      { title: null, note: "2 eggs" },
      { title: null, note: "60 g plain flour" },
      { title: null, note: "100 g feta" },
      { title: "Frying", note: "3 tbsp olive oil" },
    ]);
    expect(f.recipe.recipeInstructions[0]).toEqual({
      title: "Batter",
      text: "Grate zucchini into a bowl and salt with salt. Leave for 10 minutes.",
    });
    expect(f.recipe.recipeInstructions[1].text).toBe(
      "Squeeze out the water, then stir in eggs, plain flour and feta.",
    );
    expect(f.recipe.recipeInstructions[2]).toEqual({
      title: "Frying",
      text: "Heat olive oil in a large frying pan. Fry spoonfuls for fry (3 minutes) a side.",
    });
    expect(names(f.recipe.tools as Array<{ name: string }>)).toEqual(["bowl", "large frying pan"]);
    expect(names(f.recipe.tags)).toEqual(["Vegetarian", "Summer"]);
    expect(names(f.recipe.recipeCategory)).toEqual(["Starter"]);
    expect(f.recipe.prepTime).toBe("15 minutes");
    expect(f.recipe.performTime).toBe("20 minutes");
    expect(f.recipe.recipeServings).toBe(4);
    expect(f.recipe.notes).toEqual([{ title: "", text: "Serve with yoghurt and a squeeze of lemon." }]);
    expect(imageBytes(f.entry)).not.toBeNull();
    const crepes = r.get("Crêpes")!;
    expect(crepes.recipe.totalTime).toBe("30 minutes");
    expect(crepes.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "250 g flour",
      "500 ml milk",
      "3 eggs",
    ]);
    expect(r.get("tea")!.recipe.recipeInstructions[0].text).toBe("tea bag in boiling water. Wait 4 minutes.");
  });
});
