/**
 * Recipe Keeper: `recipes.html` with one `div.recipe-details` per recipe, marked up with microdata
 * (`itemprop="recipeIngredients"`, `recipeDirections`, `photo0`, …), pictures in `images/`.
 */
import { load, type CheerioAPI } from "cheerio";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import { type Archive, type ReaderContext, dirname, isJunk, linkedEntry } from "../shared/archive.js";
import { cleanRecipe } from "../shared/clean.js";
import { failed, ok, pictureAt, wrongType } from "../shared/entry.js";

const MAX_HTML = 64 * 1024 * 1024;

type Node = ReturnType<CheerioAPI>[number];

function prop($: CheerioAPI, root: Node, name: string): string {
  const el = $(root).find(`[itemprop="${name}"]`).first();
  if (!el.length) return "";
  return (el.attr("content") ?? el.text()).trim();
}
function props($: CheerioAPI, root: Node, name: string): string[] {
  return $(root)
    .find(`[itemprop="${name}"]`)
    .toArray()
    .map((e) => ($(e).attr("content") ?? $(e).text()).trim())
    .filter(Boolean);
}
/** A block of paragraphs or line breaks as its lines. */
function lines($: CheerioAPI, root: Node, name: string): string[] {
  const el = $(root).find(`[itemprop="${name}"]`).first();
  if (!el.length) return [];
  const html = (el.html() ?? "").replace(/<br\s*\/?>/gi, "\n").replace(/<\/(p|div|li)>/gi, "\n");
  return load(`<div>${html}</div>`)("div")
    .text()
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

export async function* readRecipeKeeper(
  archive: Archive,
  ctx?: ReaderContext,
): AsyncGenerator<MigratedEntry> {
  const page = archive.entries.find((e) => !isJunk(e.path) && /(^|\/)recipes\.html?$/i.test(e.path));
  if (!page) throw wrongType("Recipe Keeper", "no recipes.html was found");
  const base = dirname(page.path);
  const $ = load(await archive.readText(page.path, MAX_HTML));
  const blocks = $("div.recipe-details").toArray();
  if (blocks.length === 0) throw wrongType("Recipe Keeper", "recipes.html holds no recipe-details block");
  ctx?.onTotal?.(blocks.length);
  for (const el of blocks) {
    const name = prop($, el, "name") || "Untitled";
    try {
      const recipe = cleanRecipe({
        name,
        ingredients: lines($, el, "recipeIngredients").join("\n"),
        instructions: lines($, el, "recipeDirections").join("\n"),
        notes: lines($, el, "recipeNotes"),
        prepTime: prop($, el, "prepTime"),
        performTime: prop($, el, "cookTime"),
        totalTime: prop($, el, "totalTime"),
        recipeYield: prop($, el, "recipeYield"),
        tags: props($, el, "recipeCourse"),
        categories: props($, el, "recipeCategory"),
        orgURL: /^https?:\/\//i.test(prop($, el, "recipeSource")) ? prop($, el, "recipeSource") : null,
        rating: prop($, el, "recipeRating"),
        nutrition: {
          calories: prop($, el, "recipeNutCalories"),
          fatContent: prop($, el, "recipeNutTotalFat"),
          saturatedFatContent: prop($, el, "recipeNutSaturatedFat"),
          cholesterolContent: prop($, el, "recipeNutCholesterol"),
          sodiumContent: prop($, el, "recipeNutSodium"),
          carbohydrateContent: prop($, el, "recipeNutTotalCarbohydrate"),
          fiberContent: prop($, el, "recipeNutDietaryFiber"),
          sugarContent: prop($, el, "recipeNutSugars"),
          proteinContent: prop($, el, "recipeNutProtein"),
        },
      });
      const source = prop($, el, "recipeSource");
      if (source && !recipe.orgURL) recipe.notes.push({ title: "Source", text: source });
      const src = $(el).find('[itemprop="photo0"]').attr("src");
      let image = null;
      if (src && !/^[a-z]+:/i.test(src)) {
        const path = linkedEntry(archive, base, src);
        if (path) image = await pictureAt(archive, path);
      }
      const id = prop($, el, "recipeId");
      yield ok(recipe, { image, sourceId: id ? `recipekeeper:${id}` : null });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
