/**
 * The My Recipe Box reader on exports built here: the bare CSV the app writes (its columns in its
 * order, the trailing empty column, CRLF, multi-line quoted cells, "key : value" nutrition lines,
 * ';' lists), the variants real exports and spreadsheet round-trips leave (a row shifted by one cell,
 * a row cut short, blank rows, a BOM, Windows-1252 text, the CSV zipped), a row without a title that
 * fails alone, and the migration service on top.
 */
import { describe, expect, it } from "vitest";
import { byName, collect, migrationLarder, names, scratchFolder } from "../test-support.js";

const scratch = scratchFolder("larder-myrecipebox-");

/** The header as the app writes it, ending in a comma (an unnamed last column). */
const HEADER =
  "title,description,preparationTime,cookingTime,inactiveTime,totalTime,quantity,ingredients,instructions," +
  "notes,nutrition,favorite,rating,categories,tags,video,source,originalPicture,";

/** A cell as a CSV writer quotes it: only when it holds a comma, a quote or a line break. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][], opts: { bom?: boolean; eol?: string } = {}) => {
  const eol = opts.eol ?? "\r\n";
  return (opts.bom ? "\uFEFF" : "") + [HEADER, ...rows.map((r) => r.map(cell).join(","))].join(eol) + eol;
};

/** Windows-1252 bytes (Latin-1 plus the few letters cp1252 puts in 0x80–0x9f that these recipes use). */
const cp1252 = (text: string) =>
  Buffer.from([...text].map((ch) => ({ œ: 0x9c, "’": 0x92 })[ch] ?? ch.charCodeAt(0)));

/** A row as the app writes it: 18 named cells and the empty unnamed one. */
const LENTIL_SOUP = [
  "Lentil Soup",
  'A "hearty" soup for cold days.',
  "15",
  "45",
  "",
  "60",
  "4",
  "1 cup red lentils\n1 onion, diced\n2 cloves garlic",
  "Rinse the lentils.\n\nSoften the onion and garlic.\n\nSimmer 40 minutes.",
  "Freezes well.\nAdd lemon at the table.",
  "servingSize : 1 bowl\ncalories : 310 kcal\nfat : 6 g\nsaturatedFat : 1 g\nsodium : 480 mg\n" +
    "carbohydrate : 50 g\nfiber : 12 g\nsugar : 5 g\nprotein : 18 g",
  "true",
  "4",
  "Soups;main dish",
  "",
  "",
  "https://example.org/lentil-soup",
  "https://example.org/img/lentil-soup.jpg",
  "",
];

/** A row with tags, where some exports put one empty cell too many: page and picture move right. */
const APPLE_CRUMBLE = [
  "Apple Crumble",
  "",
  "20",
  "40",
  "",
  "60",
  "6",
  "6 apples\n100 g butter\n150 g flour\n80 g sugar",
  "Slice the apples.\nRub butter, flour and sugar to crumbs.\nBake 40 minutes.",
  "",
  "",
  "false",
  "",
  "Dessert",
  "autumn;Baking",
  "",
  "",
  "https://example.org/apple-crumble",
  "https://example.org/img/apple-crumble.png",
];

/** A recipe from a video, with resting time and no page. */
const PANCAKES = [
  "Pancakes",
  "",
  "10",
  "15",
  "30",
  "55",
  "8 pancakes",
  "200 g flour\n2 eggs\n300 ml milk",
  "Whisk.\nRest 30 minutes.\nFry.",
  "",
  "",
  "false",
  "",
  "Breakfast",
  "",
  "https://www.youtube.com/watch?v=pancake123",
  "",
  "",
  "",
];

/** A row cut short after the instructions (a hand-edited file): the missing cells are empty. */
const TOAST = [
  "Buttered Toast",
  "",
  "2",
  "3",
  "",
  "5",
  "",
  "1 slice bread\n1 tsp butter",
  "Toast, then butter.",
];

describe("My Recipe Box reader on exports built here", () => {
  it("reads a header a spreadsheet re-cased or spaced: 'Title', ' TITLE ', 'Preparation Time'", async () => {
    const header = HEADER.split(",")
      .map(
        (h, i) =>
          [h.toUpperCase(), ` ${h.replace(/([A-Z])/g, " $1")} `, h[0]?.toUpperCase() + h.slice(1)][i % 3],
      )
      .join(",");
    const path = await scratch.file("recased.csv", csv([LENTIL_SOUP]).replace(HEADER, header));
    const soup = byName(await collect("myrecipebox", path)).get("Lentil Soup")!;
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.totalTime).toBe("1 hour");
    expect(soup.recipe.recipeIngredient).toHaveLength(3);
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.entry.imported.image).toEqual({ url: "https://example.org/img/lentil-soup.jpg" });
  });

  it("reads the bare CSV: times in minutes, lines as ingredients and steps, nutrition, ';' lists, page and picture", async () => {
    const path = await scratch.file(
      "export.csv",
      csv([LENTIL_SOUP, APPLE_CRUMBLE, PANCAKES, TOAST], { bom: true }),
    );
    const r = byName(await collect("myrecipebox", path));
    expect([...r.keys()]).toEqual(["Lentil Soup", "Apple Crumble", "Pancakes", "Buttered Toast"]);

    const soup = r.get("Lentil Soup")!;
    expect(soup.recipe.description).toBe('A "hearty" soup for cold days.');
    expect(soup.recipe.prepTime).toBe("15 minutes");
    expect(soup.recipe.performTime).toBe("45 minutes");
    expect(soup.recipe.totalTime).toBe("1 hour");
    expect(soup.recipe.recipeYield).toBe("4");
    expect(soup.recipe.recipeIngredient).toEqual([
      { title: null, note: "1 cup red lentils" },
      { title: null, note: "1 onion, diced" },
      { title: null, note: "2 cloves garlic" },
    ]);
    expect(soup.recipe.recipeInstructions.map((s) => s.text)).toEqual([
      "Rinse the lentils.",
      "Soften the onion and garlic.",
      "Simmer 40 minutes.",
    ]);
    expect(soup.recipe.notes).toEqual([
      { title: "", text: "Freezes well." },
      { title: "", text: "Add lemon at the table." },
    ]);
    expect(soup.recipe.nutrition).toEqual({
      calories: "310",
      fatContent: "6",
      saturatedFatContent: "1",
      sodiumContent: "480",
      carbohydrateContent: "50",
      fiberContent: "12",
      sugarContent: "5",
      proteinContent: "18",
    });
    expect(names(soup.recipe.recipeCategory)).toEqual(["Soups", "Main Dish"]);
    expect(soup.recipe.tags).toEqual([]);
    expect(soup.recipe.rating).toBe(4);
    expect(soup.recipe.orgURL).toBe("https://example.org/lentil-soup");
    expect(soup.entry.imported.image).toEqual({ url: "https://example.org/img/lentil-soup.jpg" });
    expect(soup.entry.sourceId).toBe("https://example.org/lentil-soup");

    const crumble = r.get("Apple Crumble")!;
    expect(names(crumble.recipe.tags)).toEqual(["Autumn", "Baking"]);
    expect(names(crumble.recipe.recipeCategory)).toEqual(["Dessert"]);
    expect(crumble.recipe.orgURL).toBe("https://example.org/apple-crumble");
    expect(crumble.entry.imported.image).toEqual({ url: "https://example.org/img/apple-crumble.png" });
    expect(crumble.recipe.rating).toBeUndefined();

    const pancakes = r.get("Pancakes")!;
    expect(pancakes.recipe.recipeYield).toBe("8 pancakes");
    // As Mealie reads it: a recipe saved from a video has the video as its source.
    expect(pancakes.recipe.extras).toEqual({ inactiveTime: "30 minutes" });
    expect(pancakes.recipe.orgURL).toBe("https://www.youtube.com/watch?v=pancake123");
    expect(pancakes.recipe.notes).toEqual([]);
    expect(pancakes.entry.imported.image).toBeUndefined();

    const toast = r.get("Buttered Toast")!;
    expect(toast.recipe.recipeIngredient.map((i) => i.note)).toEqual(["1 slice bread", "1 tsp butter"]);
    expect(toast.recipe.recipeInstructions.map((s) => s.text)).toEqual(["Toast, then butter."]);
    expect(toast.recipe.totalTime).toBe("5 minutes");
    expect(toast.recipe.notes).toEqual([]);
    expect(toast.recipe.nutrition).toEqual({});
    expect(toast.recipe.recipeCategory).toEqual([]);
    expect(toast.entry.imported.image).toBeUndefined();
  });

  it("a recipe with both a page and a video keeps the page as its source and the video as a note", async () => {
    const both = [...PANCAKES];
    both[0] = "Crêpes";
    both[16] = "https://example.org/crepes"; // source
    const r = byName(await collect("myrecipebox", await scratch.file("both.csv", csv([both]))));
    expect(r.get("Crêpes")!.recipe).toMatchObject({
      orgURL: "https://example.org/crepes",
      notes: [{ title: "", text: "Video: https://www.youtube.com/watch?v=pancake123" }],
    });
  });

  it("a row without a title fails alone, naming its row; blank rows are no recipes", async () => {
    const untitled = ["", "Only a description", "", "", "", "", "", "2 eggs", "Beat."];
    const blank = Array.from({ length: 19 }, () => "");
    const text = csv([LENTIL_SOUP, blank, untitled, TOAST]).replace(/\r\n$/, "\r\n\r\n,,,,\r\n");
    const path = await scratch.file("broken.csv", text);
    const totals: number[] = [];
    const entries = await collect("myrecipebox", path, (n) => totals.push(n));
    expect(totals).toEqual([3]);
    expect(entries.map((e) => [e.ok, e.name])).toEqual([
      [true, "Lentil Soup"],
      [false, "Row 4"],
      [true, "Buttered Toast"],
    ]);
    expect(entries[1]).toMatchObject({ error: "Error: Row 4 has no title; it was not imported" });
  });

  it("Windows-1252 text with LF line ends reads as the letters it means", async () => {
    const crepes = [
      "Crêpes au sucre",
      "Les crêpes de grand-mère’s kitchen",
      "10",
      "20",
      "60",
      "90",
      "12",
      "250 g farine\n3 œufs\n½ l lait",
      "Mélanger.\nCuire à 180 °C.",
      "",
      "",
      "false",
      "5",
      "Desserts;Crêperie",
      "",
      "",
      "",
      "",
      "",
    ];
    const path = await scratch.file("cp1252.csv", cp1252(csv([crepes], { eol: "\n" })));
    const c = byName(await collect("myrecipebox", path)).get("Crêpes au sucre")!;
    expect(c.recipe.description).toBe("Les crêpes de grand-mère’s kitchen");
    expect(c.recipe.recipeIngredient.map((i) => i.note)).toEqual(["250 g farine", "3 œufs", "½ l lait"]);
    expect(c.recipe.recipeInstructions.map((s) => s.text)).toEqual(["Mélanger.", "Cuire à 180 °C."]);
    expect(names(c.recipe.recipeCategory)).toEqual(["Desserts", "Crêperie"]);
    expect(c.recipe.totalTime).toBe("1 hour 30 minutes");
    expect(c.recipe.rating).toBe(5);
  });

  it("takes the CSV from a zip too, past a Mac wrapper; a CSV of another app is refused by name", async () => {
    const zip = await scratch.zip("export.zip", [
      { name: "__MACOSX/MyRecipeBox/._recipes.csv", data: "junk" },
      { name: "MyRecipeBox/recipes.csv", data: csv([TOAST]) },
    ]);
    expect([...byName(await collect("myrecipebox", zip)).keys()]).toEqual(["Buttered Toast"]);

    const other = await scratch.file("other.csv", "Name,Ingredients\r\nLentil Soup,lentils\r\n");
    await expect(collect("myrecipebox", other)).rejects.toThrow(
      "This archive is not a My Recipe Box export: the CSV has no title and ingredients columns. Check the migration type.",
    );
    const planToEat = await scratch.file(
      "pte.csv",
      "Title,Ingredients,Directions\r\nLentil Soup,lentils,Boil.\r\n",
    );
    await expect(collect("myrecipebox", planToEat)).rejects.toThrow(
      "This archive is not a My Recipe Box export: the CSV has Plan to Eat's Directions column, not instructions.",
    );
  });
});

describe("My Recipe Box through the migration service", () => {
  const env = migrationLarder("larder-myrecipebox-service-");

  it("imports both recipes of one page, reports the untitled row, and a re-run skips what it made", async () => {
    const { larder, actor } = env;
    // No picture URLs here: the service would fetch them.
    const page = "https://example.org/two-soups";
    const row = (title: string) => [
      title,
      "",
      "10",
      "20",
      "",
      "30",
      "",
      "1 leek",
      "Simmer.",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      page,
      "",
      "",
    ];
    const path = await scratch.file("service.csv", csv([row("Pea Soup"), row(""), row("Leek Soup")]));
    const first = await (await larder.migrations.start(actor, { type: "myrecipebox", path })).done;
    expect(first.entries).toEqual([
      { status: "imported", name: "Pea Soup", slug: "pea-soup" },
      { status: "failed", name: "Row 3", error: "Error: Row 3 has no title; it was not imported" },
      { status: "imported", name: "Leek Soup", slug: "leek-soup" },
    ]);
    const pea = larder.recipes.get(actor, "pea-soup") as unknown as Record<string, unknown>;
    expect(pea).toMatchObject({ orgURL: page, prepTime: "10 minutes", totalTime: "30 minutes" });
    const again = await (await larder.migrations.start(actor, { type: "myrecipebox", path })).done;
    expect(again).toMatchObject({ imported: 0, skipped: 2, failed: 1 });
  });
});
