/** Nextcloud Cookbook: one folder per recipe with a schema.org `recipe.json` and `full.jpg`. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, basename, dirname, imageType, isJunk } from "../shared/archive.js";
import { cleanRecipe, type Loose } from "../shared/clean.js";
import { failed, MAX_IMAGE_BYTES, ok, wrongType } from "../shared/entry.js";

export async function* readNextcloud(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".json"));
  if (files.length === 0) throw wrongType("Nextcloud Cookbook", "no recipe.json was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    const dir = dirname(file.path);
    let name = basename(dir) || basename(file.path);
    try {
      const json = JSON.parse(await archive.readText(file.path)) as Loose;
      if (typeof json.name === "string") name = json.name;
      const recipe = cleanRecipe({
        name: json.name,
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
        dateAdded: json.dateCreated,
      });
      // full.* is the original; thumb.* is Nextcloud's own small copy.
      const images = archive.entries.filter(
        (e) => dirname(e.path) === dir && imageType(e.path) && !isJunk(e.path),
      );
      const full =
        images.find((e) => basename(e.path).toLowerCase().startsWith("full.")) ??
        images.find((e) => !basename(e.path).toLowerCase().startsWith("thumb."));
      const image = full ? { bytes: await archive.read(full.path, MAX_IMAGE_BYTES), path: full.path } : null;
      yield ok(recipe, {
        image,
        sourceId: typeof json.id === "string" || typeof json.id === "number" ? `nextcloud:${json.id}` : null,
      });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
