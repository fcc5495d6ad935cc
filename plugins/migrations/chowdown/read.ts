/** Chowdown (a Jekyll site): `_recipes/*.md` with YAML front matter, pictures in `images/`. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, basename, isJunk, stem } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { failed, frontMatter, MAX_IMAGE_BYTES, ok, wrongType } from "../shared/entry.js";

export async function* readChowdown(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter(
    (e) => !isJunk(e.path) && /(^|\/)_recipes\/[^/]+\.(md|markdown)$/i.test(e.path),
  );
  if (files.length === 0) throw wrongType("Chowdown", "no _recipes/*.md file was found");
  const images = archive.entries.filter((e) => !isJunk(e.path) && /(^|\/)images\/[^/]+$/i.test(e.path));
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    let name = stem(file.path);
    try {
      const { data, body } = frontMatter(await archive.readText(file.path));
      if (typeof data.title === "string") name = data.title;
      const recipe = cleanRecipe({
        name: data.title ?? name,
        description: body.trim() || undefined,
        ingredients: data.ingredients,
        instructions: data.directions,
        tags: data.tags,
        categories: data.categories ?? data.category,
        recipeYield: data.yield ?? data.servings,
        prepTime: data.prep,
        performTime: data.cook,
        totalTime: data.time,
        orgURL: data.source ?? data.url,
      });
      // The body is Markdown prose about the dish: clean_string would strip only tags, so keep it whole.
      recipe.description = body.trim();
      const wanted = typeof data.image === "string" ? basename(data.image) : null;
      const img = wanted ? images.find((e) => basename(e.path) === wanted) : null;
      const image = img ? { bytes: await archive.read(img.path, MAX_IMAGE_BYTES), path: img.path } : null;
      yield ok(recipe, { image, sourceId: `chowdown:${stem(file.path)}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
