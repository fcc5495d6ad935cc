/** Nextcloud Cookbook: one folder per recipe with a schema.org `recipe.json` and `full.jpg`. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ReaderContext,
  basename,
  dirname,
  entriesIn,
  imageType,
  isJunk,
} from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { failed, ok, pictureAt, recipeObject, wrongType } from "../shared/entry.js";

/**
 * `dateCreated` as Cookbook versions wrote it: an ISO date-time in recent ones, seconds since 1970 as a
 * string in older ones ("0" when unknown).
 */
function createdDate(v: unknown): unknown {
  if ((typeof v === "string" && /^\d{9,11}$/.test(v.trim())) || (typeof v === "number" && v >= 1e8)) {
    return new Date(Number(v) * 1000).toISOString();
  }
  return v;
}

export async function* readNextcloud(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".json"));
  if (files.length === 0) throw wrongType("Nextcloud Cookbook", "no recipe.json was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    const dir = dirname(file.path);
    let name = basename(dir) || basename(file.path);
    try {
      const json = recipeObject(await archive.readText(file.path), file.path);
      if (typeof json.name === "string" && json.name.trim()) name = json.name;
      const recipe = cleanRecipe({
        // Cookbook names each folder after its recipe, so a recipe.json without a name keeps the folder's.
        name,
        description: json.description,
        recipeYield: json.recipeYield,
        ingredients: json.recipeIngredient,
        instructions: json.recipeInstructions,
        totalTime: json.totalTime,
        prepTime: json.prepTime,
        performTime: json.cookTime ?? json.performTime,
        tags: json.keywords,
        categories: json.recipeCategory,
        tools: json.tool,
        nutrition: json.nutrition,
        orgURL: json.url,
        dateAdded: createdDate(json.dateCreated),
      });
      // full.* is the original; thumb.* and (in newer Cookbooks) thumb16.* are Nextcloud's small copies.
      const images = entriesIn(archive, dir).filter((e) => imageType(e.path) && !isJunk(e.path));
      const full =
        images.find((e) => basename(e.path).toLowerCase().startsWith("full.")) ??
        images.find((e) => !basename(e.path).toLowerCase().startsWith("thumb"));
      const image = full ? await pictureAt(archive, full.path) : null;
      yield ok(recipe, {
        image,
        sourceId: typeof json.id === "string" || typeof json.id === "number" ? `nextcloud:${json.id}` : null,
      });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
