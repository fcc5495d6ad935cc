/** My Recipe Box: a bare CSV (or a zip holding one), a row per recipe. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, isJunk } from "../shared/archive.js";
import { cleanRecipe, cleanTime } from "../shared/clean.js";
import { isBlankRow, readCsv } from "../shared/csv.js";
import { failed, ok, wrongType } from "../shared/entry.js";

const MAX_CSV = 64 * 1024 * 1024;

const NUTRITION_NAMES: Record<string, string> = {
  calories: "calories",
  carbohydrate: "carbohydrateContent",
  cholesterol: "cholesterolContent",
  fat: "fatContent",
  fiber: "fiberContent",
  protein: "proteinContent",
  saturatedfat: "saturatedFatContent",
  sodium: "sodiumContent",
  sugar: "sugarContent",
  transfat: "transFatContent",
  unsaturatedfat: "unsaturatedFatContent",
};

/** "calories : 150 kcal\ncarbohydrate : 25 g" → schema.org nutrition keys. */
export function myRecipeBoxNutrition(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of (text ?? "").split(/\r?\n/)) {
    const m = /^\s*([A-Za-z ]+?)\s*:\s*(.+)$/.exec(line);
    if (!m) continue;
    const key = NUTRITION_NAMES[m[1].replace(/\s+/g, "").toLowerCase()];
    if (key) out[key] = m[2].trim();
  }
  return out;
}

/** The columns My Recipe Box writes, in its case. */
const COLUMNS = [
  "title",
  // Plan to Eat's, named to tell its CSV apart.
  "Directions",
  "description",
  "preparationTime",
  "cookingTime",
  "totalTime",
  "inactiveTime",
  "quantity",
  "ingredients",
  "instructions",
  "notes",
  "nutrition",
  "categories",
  "tags",
  "source",
  "originalPicture",
  "video",
  "rating",
];

const looksLikeImage = (u: string) => /^https?:\/\/\S+\.(jpe?g|png|webp|gif|avif)(\?\S*)?$/i.test(u);
const isUrl = (u: string) => /^https?:\/\//i.test(u);

/**
 * Some exports carry one cell too many in a row, which pushes the page address into originalPicture and
 * the picture into the unnamed last column: take each value where it plainly belongs.
 */
export function sourceAndPicture(row: Record<string, string>): {
  source: string | null;
  picture: string | null;
} {
  const cells = [row.source, row.originalPicture, row[""]].map((v) => (v ?? "").trim()).filter(isUrl);
  const picture = cells.find(looksLikeImage) ?? null;
  const source = cells.find((c) => c !== picture) ?? null;
  return { source, picture };
}

const list = (v: string | undefined) =>
  (v ?? "")
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean);

export async function* readMyRecipeBox(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const file =
    archive.entries.find((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".csv")) ??
    (archive.entries.length === 1 ? archive.entries[0] : undefined);
  if (!file) throw wrongType("My Recipe Box", "no CSV file was found");
  const rows = readCsv(await archive.readText(file.path, MAX_CSV), "The My Recipe Box file", COLUMNS);
  if (rows.length && !("title" in rows[0] && "ingredients" in rows[0]))
    throw wrongType("My Recipe Box", "the CSV has no title and ingredients columns");
  // Headers are read in any case, so Plan to Eat's "Title" and "Ingredients" are these columns too: its
  // steps are in "Directions", where My Recipe Box writes "instructions".
  if (rows.length && "Directions" in rows[0] && !("instructions" in rows[0]))
    throw wrongType("My Recipe Box", "the CSV has Plan to Eat's Directions column, not instructions");
  ctx?.onTotal?.(rows.filter((r) => !isBlankRow(r)).length);
  for (const [i, row] of rows.entries()) {
    if (isBlankRow(row)) continue;
    // The row as a spreadsheet numbers it (the header is row 1).
    const name = row.title?.trim() || `Row ${i + 2}`;
    try {
      // Every recipe has a title in the app: a row without one is most likely a broken row (a line break
      // a spreadsheet wrote outside quotes, a cut-off file), reported rather than imported as "Untitled".
      if (!row.title?.trim()) throw new Error(`Row ${i + 2} has no title; it was not imported`);
      const { source, picture: pic } = sourceAndPicture(row);
      const video = isUrl(row.video?.trim() ?? "") ? row.video.trim() : null;
      const recipe = cleanRecipe({
        name: row.title,
        description: row.description,
        prepTime: row.preparationTime,
        performTime: row.cookingTime,
        totalTime: row.totalTime,
        timesInMinutes: true,
        recipeYield: row.quantity,
        ingredients: row.ingredients,
        instructions: row.instructions,
        notes: [...(row.notes ?? "").split(/\r?\n/), ...(source && video ? [`Video: ${video}`] : [])].filter(
          (l) => l.trim(),
        ),
        nutrition: myRecipeBoxNutrition(row.nutrition),
        categories: list(row.categories),
        tags: list(row.tags),
        // A recipe saved from a video has the video as its source; one with a page keeps it as a note.
        orgURL: source ?? video,
        rating: row.rating,
      });
      const inactive = cleanTime(row.inactiveTime, { minutes: true });
      if (inactive) recipe.extras = { inactiveTime: inactive };
      yield ok(recipe, { image: pic ? { url: pic } : null });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
