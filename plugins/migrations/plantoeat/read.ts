/** Plan to Eat: a zip holding one CSV, a row per recipe. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, isJunk } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { readCsv } from "../shared/csv.js";
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

export async function* readPlanToEat(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const file = archive.entries.find((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".csv"));
  if (!file) throw wrongType("Plan to Eat", "no CSV file was found");
  const rows = readCsv(await archive.readText(file.path, MAX_CSV), file.path);
  if (rows.length && !("Title" in rows[0] && "Ingredients" in rows[0]))
    throw wrongType("Plan to Eat", "the CSV has no Title and Ingredients columns");
  ctx?.onTotal?.(rows.length);
  for (const [i, row] of rows.entries()) {
    const name = row.Title?.trim() || `Row ${i + 2}`;
    try {
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
      yield ok(recipe, { image: photo ? { url: photo } : null, sourceId: row["Public Url"]?.trim() || null });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
