/** Plan to Eat: a zip holding one CSV, a row per recipe. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, isJunk } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { isBlankRow, readCsv } from "../shared/csv.js";
import { failed, ok, wrongType } from "../shared/entry.js";

const MAX_CSV = 64 * 1024 * 1024;

/** Plan to Eat marks an ingredient heading with a leading ", ": it becomes the next line's section title. */
export function plantoeatIngredients(text: string): Array<{ title: string | null; note: string }> {
  const out: Array<{ title: string | null; note: string }> = [];
  let title: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (raw.startsWith(", ")) {
      title = raw.slice(2).trim() || null;
      continue;
    }
    out.push({ title, note: line });
    title = null;
  }
  return out;
}

const split = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The columns Plan to Eat writes, in its case. */
const COLUMNS = [
  "Title",
  "Description",
  "Course",
  "Cuisine",
  "Tags",
  "Main Ingredient",
  "Url",
  "Public Url",
  "Photo Url",
  "Source",
  "Prep Time",
  "Cook Time",
  "Total Time",
  "Yield",
  "Servings",
  "Ingredients",
  "Directions",
  "Rating",
  "Created At",
  "Calories",
  "Fat",
  "Saturated Fat",
  "Cholesterol",
  "Sodium",
  "Sugar",
  "Carbohydrate",
  "Fiber",
  "Protein",
  // My Recipe Box's, named to tell its CSV apart.
  "instructions",
];

/** My Recipe Box's CSV has a title and ingredients too (headers are read in any case), but "instructions". */
const isRecipeTable = (row: Record<string, string>) =>
  "Title" in row && "Ingredients" in row && ("Directions" in row || !("instructions" in row));

export async function* readPlanToEat(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".csv"));
  if (files.length === 0) throw wrongType("Plan to Eat", "no CSV file was found");
  // Every CSV with the recipe columns is read, as Mealie reads every CSV (a zip may hold more than one
  // export); a CSV without them (a meal plan, a shopping list) is not a recipe list and is passed over.
  const tables: Array<{ path: string; rows: Record<string, string>[] }> = [];
  let foreign = false;
  for (const file of files) {
    const rows = readCsv(await archive.readText(file.path, MAX_CSV), file.path, COLUMNS);
    if (rows.length && !isRecipeTable(rows[0])) foreign = true;
    else tables.push({ path: file.path, rows });
  }
  if (foreign && tables.every((t) => t.rows.length === 0))
    throw wrongType("Plan to Eat", "the CSV has no Title and Ingredients columns");
  ctx?.onTotal?.(tables.reduce((n, t) => n + t.rows.filter((r) => !isBlankRow(r)).length, 0));
  for (const { path, rows } of tables) {
    for (const [i, row] of rows.entries()) {
      if (isBlankRow(row)) continue;
      // The row as a spreadsheet numbers it (the header is row 1), with the file when there are several.
      const where = tables.length > 1 ? `${path}, row ${i + 2}` : `Row ${i + 2}`;
      const name = row.Title?.trim() || where;
      try {
        // Every recipe has a title in Plan to Eat: a row without one is most likely a broken row (a line
        // break a spreadsheet wrote outside quotes), reported rather than imported as "Untitled".
        if (!row.Title?.trim()) throw new Error(`${where} has no Title; it was not imported`);
        const servings = Number.parseFloat(row.Servings ?? "");
        const recipe = cleanRecipe({
          name: row.Title,
          description: row.Description,
          categories: [row.Course, row.Cuisine].filter((v) => v && v.trim()),
          tags: [...split(row.Tags), ...split(row["Main Ingredient"])],
          orgURL: row.Url,
          prepTime: row["Prep Time"],
          performTime: row["Cook Time"],
          totalTime: row["Total Time"],
          timesInMinutes: true,
          recipeYield: row.Yield?.trim() || row.Servings,
          recipeServings: Number.isFinite(servings) ? servings : undefined,
          ingredientObjects: plantoeatIngredients(row.Ingredients ?? ""),
          instructions: row.Directions,
          rating: row.Rating,
          dateAdded: row["Created At"],
          notes: row.Source?.trim() ? [`Source: ${row.Source.trim()}`] : [],
          nutrition: {
            calories: row.Calories,
            fatContent: row.Fat,
            saturatedFatContent: row["Saturated Fat"],
            cholesterolContent: row.Cholesterol,
            sodiumContent: row.Sodium,
            sugarContent: row.Sugar,
            carbohydrateContent: row.Carbohydrate,
            fiberContent: row.Fiber,
            proteinContent: row.Protein,
          },
        });
        const photo = row["Photo Url"]?.trim();
        yield ok(recipe, { image: photo ? { url: photo } : null, sourceId: sourceIdOf(row) });
      } catch (e) {
        yield failed(name, e);
      }
    }
  }
}

/** The id a re-run recognises the recipe by: its Plan to Eat page when the export gives one. */
function sourceIdOf(row: Record<string, string>) {
  return row["Public Url"]?.trim() || null;
}
