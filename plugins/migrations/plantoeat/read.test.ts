/**
 * The Plan to Eat reader on exports built here: a zip holding the CSV Plan to Eat writes (every column,
 * ingredient headings, multi-line quoted fields with quotes inside, CRLF, a BOM), the variants real
 * exports and spreadsheet round-trips leave (empty optional columns, times in words, a row without a
 * title, trailing blank rows, other CSVs beside the recipe list), and the migration service on top.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, migrationLarder, names, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-plantoeat-");

const HEADER = [
  "Title",
  "Course",
  "Cuisine",
  "Main Ingredient",
  "Description",
  "Source",
  "Url",
  "Url Host",
  "Prep Time",
  "Cook Time",
  "Total Time",
  "Servings",
  "Yield",
  "Ingredients",
  "Directions",
  "Tags",
  "Rating",
  "Public Url",
  "Photo Url",
  "Private",
  "Nutritional Score (generic)",
  "Calories",
  "Fat",
  "Saturated Fat",
  "Cholesterol",
  "Sodium",
  "Sugar",
  "Carbohydrate",
  "Fiber",
  "Protein",
  "Cost",
  "Created At",
  "Updated At",
];

/** A cell as a CSV writer quotes it: only when it holds a comma, a quote or a line break. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A Plan to Eat CSV: the header, then a row per recipe with the columns given (the rest empty). */
function csv(rows: Array<Record<string, string>>, opts: { bom?: boolean; eol?: string } = {}): string {
  const eol = opts.eol ?? "\r\n";
  const lines = [HEADER, ...rows.map((r) => HEADER.map((h) => r[h] ?? ""))].map((cells) =>
    cells.map(cell).join(","),
  );
  return (opts.bom ? "\uFEFF" : "") + lines.join(eol) + eol;
}

const LENTIL_SOUP: Record<string, string> = {
  Title: "Lentil Soup",
  Course: "Main Course",
  Cuisine: "Middle Eastern",
  "Main Ingredient": "Lentils",
  Description: 'A "hearty" soup for cold days.\nFreezes well.',
  Source: "Aunt Mira's card",
  Url: "https://example.org/lentil-soup",
  "Url Host": "example.org",
  "Prep Time": "15",
  "Cook Time": "45",
  "Total Time": "60",
  Servings: "4",
  Ingredients:
    ", Soup\r\n1 cup red lentils\r\n1 onion, diced\r\n2 cloves garlic\r\n, To serve\r\nlemon wedges\r\n\r\n",
  Directions:
    'Rinse the lentils.\r\nSoften the onion and garlic, then add "everything else".\r\nSimmer 40 minutes.',
  Tags: "soup, Vegan,  winter",
  Rating: "4",
  "Public Url": "https://app.plantoeat.com/recipes/1010",
  "Photo Url": "https://plantoeat.s3.amazonaws.com/recipes/1010/lentil-soup-large.jpg?1650000000",
  Private: "no",
  Calories: "310",
  Fat: "6",
  "Saturated Fat": "1",
  Cholesterol: "0",
  Sodium: "480",
  Sugar: "5",
  Carbohydrate: "50",
  Fiber: "12",
  Protein: "18",
  "Created At": "2022-03-04 18:05:11",
  "Updated At": "2023-01-02 08:00:00",
};

const CREPES: Record<string, string> = {
  Title: "Crêpes au sucre",
  Course: "Dessert",
  "Prep Time": "1 hour",
  "Cook Time": "20 minutes",
  Yield: "12 crêpes",
  Ingredients: "250 g farine\n3 œufs\n500 ml lait\nsucre",
  Directions: "Whisk everything; rest the batter.\nCook thin crêpes and sprinkle with sugar.",
  "Created At": "2021-12-24 09:30:00",
  "Updated At": "2021-12-24 09:30:00",
};

describe("Plan to Eat reader on exports built here", () => {
  it("reads a header a spreadsheet re-cased or spaced: 'TITLE', ' title ', 'prep time', 'Photo_URL'", async () => {
    const recased = csv([LENTIL_SOUP]).replace(
      /^[^\r\n]*/,
      HEADER.map((h, i) => [h.toUpperCase(), ` ${h.toLowerCase()} `, h.replace(/ /g, "_")][i % 3]).join(","),
    );
    const path = await scratch.zip("recased.zip", [{ name: "recipes.csv", data: recased }]);
    const soup = byName(await collect("plantoeat", path)).get("Lentil Soup")!;
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(names(soup.recipe.tags)).toEqual(["Soup", "Vegan", "Winter", "Lentils"]);
    expect(soup.recipe.nutrition).toMatchObject({ saturatedFatContent: "1", proteinContent: "18" });
    expect(soup.entry.imported.image).toEqual({ url: LENTIL_SOUP["Photo Url"] });

    const myRecipeBox = "title,ingredients,instructions\r\nToast,bread,Toast it.\r\n";
    const other = await scratch.zip("mrb.zip", [{ name: "recipes.csv", data: myRecipeBox }]);
    await expect(collect("plantoeat", other)).rejects.toThrow(
      "This archive is not a Plan to Eat export: the CSV has no Title and Ingredients columns",
    );
  });

  it("reads every column of a recipe: headings as sections, quoted multi-line fields, CRLF and a BOM", async () => {
    const path = await scratch.zip("full.zip", [
      { name: "plantoeat-recipes.csv", data: csv([LENTIL_SOUP, CREPES], { bom: true }) },
    ]);
    const r = byName(await collect("plantoeat", path));
    expect([...r.keys()]).toEqual(["Lentil Soup", "Crêpes au sucre"]);
    const soup = r.get("Lentil Soup")!;
    expect(soup.recipe.description).toBe('A "hearty" soup for cold days.\nFreezes well.');
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: "Soup", note: "1 cup red lentils" },
      { title: null, note: "1 onion, diced" },
      { title: null, note: "2 cloves garlic" },
      { title: "To serve", note: "lemon wedges" },
    ]);
    expect(soup.recipe.recipeInstructions).toEqual([
      { title: "", text: "Rinse the lentils." },
      { title: "", text: 'Soften the onion and garlic, then add "everything else".' },
      { title: "", text: "Simmer 40 minutes." },
    ]);
    expect(names(soup.recipe.recipeCategory)).toEqual(["Main Course", "Middle Eastern"]);
    expect(names(soup.recipe.tags)).toEqual(["Soup", "Vegan", "Winter", "Lentils"]);
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("45 minutes");
    expect(soup.recipe.totalTime).toBe("1 hour");
    expect(soup.recipe.recipeYield).toBe("4");
    expect(soup.recipe.recipeServings).toBe(4);
    expect(soup.recipe.rating).toBe(4);
    expect(soup.recipe.dateAdded).toBe("2022-03-04");
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.recipe.notes).toEqual([{ title: "", text: "Source: Aunt Mira's card" }]);
    expect(soup.recipe.nutrition).toEqual({
      calories: "310",
      fatContent: "6",
      saturatedFatContent: "1",
      cholesterolContent: "0",
      sodiumContent: "480",
      sugarContent: "5",
      carbohydrateContent: "50",
      fiberContent: "12",
      proteinContent: "18",
    });
    expect(soup.entry.imported.image).toEqual({
      url: "https://plantoeat.s3.amazonaws.com/recipes/1010/lentil-soup-large.jpg?1650000000",
    });
    expect(soup.entry.sourceId).toBe("https://app.plantoeat.com/recipes/1010");
  });

  it("a sparse recipe: times in words, a yield but no servings, empty optional columns give nothing", async () => {
    const path = await scratch.zip("sparse.zip", [
      { name: "plantoeat.csv", data: csv([CREPES], { eol: "\n" }) },
    ]);
    const c = byName(await collect("plantoeat", path)).get("Crêpes au sucre")!;
    expect(c.recipe.prepTime).toBe("1 hour");
    expect(c.recipe.performTime).toBe("20 minutes");
    expect(c.recipe.totalTime).toBeNull();
    expect(c.recipe.recipeYield).toBe("12 crêpes");
    expect(c.recipe.recipeServings).toBeUndefined();
    expect(c.recipe.recipeIngredient.map((i) => i.note)).toEqual([
      "250 g farine",
      "3 œufs",
      "500 ml lait",
      "sucre",
    ]);
    expect(c.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Whisk everything; rest the batter.",
      "Cook thin crêpes and sprinkle with sugar.",
    ]);
    expect(names(c.recipe.recipeCategory)).toEqual(["Dessert"]);
    expect(c.recipe.tags).toEqual([]);
    expect(c.recipe.nutrition).toEqual({});
    expect(c.recipe.notes).toEqual([]);
    expect(c.recipe.orgURL).toBeNull();
    expect(c.recipe.rating).toBeUndefined();
    expect(c.recipe.dateAdded).toBe("2021-12-24");
    expect(c.entry.imported.image).toBeUndefined();
    expect(c.entry.sourceId).toBeUndefined();
  });

  it("a row without a title fails alone, naming its row; blank trailing rows are no recipes", async () => {
    const noTitle = { ...CREPES, Title: "", Ingredients: "2 eggs" };
    const blank = Object.fromEntries(HEADER.map((h) => [h, ""]));
    const path = await scratch.zip("broken.zip", [
      { name: "plantoeat.csv", data: csv([LENTIL_SOUP, noTitle, CREPES, blank, blank]) },
    ]);
    const totals: number[] = [];
    const entries = await collect("plantoeat", path, (n) => totals.push(n));
    expect(totals).toEqual([3]);
    expect(entries.map((e) => [e.ok, e.name])).toEqual([
      [true, "Lentil Soup"],
      [false, "Row 3"],
      [true, "Crêpes au sucre"],
    ]);
    expect(entries[1]).toMatchObject({ error: "Error: Row 3 has no Title; it was not imported" });
  });

  it("finds the recipe list among other CSVs and a Mac wrapper, and says so when there is none", async () => {
    const planner = "Date,Meal,Recipe\r\n2024-01-01,Dinner,Lentil Soup\r\n";
    const path = await scratch.zip("data-export.zip", [
      { name: "export/a-planner.csv", data: planner },
      { name: "export/recipes.csv", data: csv([LENTIL_SOUP]) },
      { name: "export/recipes.txt", data: "Title: Lentil Soup\n" },
      { name: "__MACOSX/export/._recipes.csv", data: "junk" },
    ]);
    expect([...byName(await collect("plantoeat", path)).keys()]).toEqual(["Lentil Soup"]);

    const onlyPlanner = await scratch.zip("planner.zip", [{ name: "planner.csv", data: planner }]);
    await expect(collect("plantoeat", onlyPlanner)).rejects.toThrow(
      "This archive is not a Plan to Eat export: the CSV has no Title and Ingredients columns. Check the migration type.",
    );
    const noCsv = await scratch.zip("nocsv.zip", [{ name: "recipes.txt", data: "Title: Lentil Soup\n" }]);
    await expect(collect("plantoeat", noCsv)).rejects.toThrow(/no CSV file was found/);
  });

  it("broken quoting is refused whole, naming the file and the line", async () => {
    const path = await scratch.zip("badquote.zip", [
      { name: "plantoeat.csv", data: csv([LENTIL_SOUP]) + 'Pea Soup,,,,"never closed\r\n' },
    ]);
    await expect(collect("plantoeat", path)).rejects.toThrow(
      /^plantoeat\.csv cannot be read as CSV \(near line \d+\)/,
    );
  });
});

describe("Plan to Eat through the migration service", () => {
  const env = migrationLarder("larder-plantoeat-service-");

  it("imports both recipes of one page, reports the untitled row, and a re-run skips what it made", async () => {
    const { larder, actor } = env;
    // No photo URLs here: the service would fetch them.
    const path = await scratch.zip("service.zip", [
      {
        name: "plantoeat.csv",
        data: csv([
          { ...CREPES, Title: "Pea Soup", Url: "https://example.org/two-soups" },
          { ...CREPES, Title: "", Ingredients: "2 eggs" },
          { ...CREPES, Title: "Leek Soup", Url: "https://example.org/two-soups" },
        ]),
      },
    ]);
    const first = await (await larder.migrations.start(actor, { type: "plantoeat", path })).done;
    expect(first.entries).toEqual([
      { status: "imported", name: "Pea Soup", slug: "pea-soup" },
      { status: "failed", name: "Row 3", error: "Error: Row 3 has no Title; it was not imported" },
      { status: "imported", name: "Leek Soup", slug: "leek-soup" },
    ]);
    const again = await (await larder.migrations.start(actor, { type: "plantoeat", path })).done;
    expect(again).toMatchObject({ imported: 0, skipped: 2, failed: 1 });
  });
});
