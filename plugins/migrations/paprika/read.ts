/**
 * Paprika: a `.paprikarecipes` zip of `*.paprikarecipe` files, each gzip-compressed JSON. Each one is
 * inflated with a cap, so a gzip bomb inside a small zip is refused like a zip bomb.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ReaderContext,
  decodeText,
  gunzipCapped,
  isJunk,
  stem,
} from "../shared/archive.js";
import { cleanRecipe, type Loose } from "../shared/clean.js";
import { failed, MAX_IMAGE_BYTES, ok, type Picture, recipeObject, wrongType } from "../shared/entry.js";

/** One recipe with its base64 photo: generous, but far below what a bomb would inflate to. */
const MAX_RECIPE_BYTES = 32 * 1024 * 1024;

/**
 * Paprika's free-text nutrition ("Calories: 250", "Fat 12 g") by the words it uses. Text pasted from
 * recipe sites often keeps them on one line, "Calories: 389kcal | Fat: 21g", so `|` separates too.
 */
const NUTRITION_WORDS: Array<[RegExp, string]> = [
  [/^calories|^energy/i, "calories"],
  [/^sat(urated)?\.? ?fat/i, "saturatedFatContent"],
  [/^trans ?fat/i, "transFatContent"],
  [/^unsat(urated)? ?fat/i, "unsaturatedFatContent"],
  [/^(total )?fat/i, "fatContent"],
  [/^cholesterol/i, "cholesterolContent"],
  [/^sodium/i, "sodiumContent"],
  [/^(total )?carb/i, "carbohydrateContent"],
  [/^(dietary )?fib(er|re)/i, "fiberContent"],
  [/^sugars?/i, "sugarContent"],
  [/^protein/i, "proteinContent"],
];

export function paprikaNutrition(text: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof text !== "string") return out;
  for (const line of text.split(/\r?\n|;|\|/)) {
    const l = line.trim();
    const hit = NUTRITION_WORDS.find(([re]) => re.test(l));
    if (hit && !(hit[1] in out)) {
      const value = l.replace(/^[^:\d]*:?\s*/, "");
      if (/\d/.test(value)) out[hit[1]] = value;
    }
  }
  return out;
}

/**
 * The recipe's picture: `photo_data` is the main photo; a recipe whose only pictures were added to its
 * photo gallery has them in `photos: [{ filename, data }]`, the first of which stands in.
 */
function photoOf(json: Loose): { data: string; path: string } | null {
  if (typeof json.photo_data === "string" && json.photo_data.length > 0) {
    return { data: json.photo_data, path: typeof json.photo === "string" ? json.photo : "photo.jpg" };
  }
  const first = (Array.isArray(json.photos) ? (json.photos as Loose[]) : []).find(
    (p) => typeof p?.data === "string" && p.data.length > 0,
  );
  if (!first) return null;
  return {
    data: first.data as string,
    path: typeof first.filename === "string" ? first.filename : "photo.jpg",
  };
}

/** A recipe file's gzipped JSON, with a message that names the recipe when it is not a recipe object. */
async function recipeJson(raw: Buffer, name: string): Promise<Loose> {
  const what = `Recipe '${name}'`;
  return recipeObject(decodeText(await gunzipCapped(raw, MAX_RECIPE_BYTES, what)), what);
}

export async function* readPaprika(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter(
    (e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".paprikarecipe"),
  );
  if (files.length === 0) throw wrongType("Paprika", "no .paprikarecipe file was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    let name = stem(file.path);
    try {
      const json = await recipeJson(await archive.read(file.path), name);
      if (typeof json.name === "string" && json.name.trim()) name = json.name;
      const recipe = cleanRecipe({
        // A recipe saved without a title keeps its file name, as Paprika's own list shows it.
        name,
        description: json.description,
        ingredients: json.ingredients,
        instructions: json.directions,
        orgURL: json.source_url,
        totalTime: json.total_time,
        prepTime: json.prep_time,
        performTime: json.cook_time,
        recipeYield: json.servings,
        tags: json.categories,
        notes: json.notes,
        nutrition: paprikaNutrition(json.nutritional_info),
        dateAdded: json.created,
        rating: json.rating,
      });
      let image: Picture = null;
      const photo = photoOf(json);
      if (photo && photo.data.length > (MAX_IMAGE_BYTES * 4) / 3 + 4)
        image = { problem: `its photo ${photo.path} was not kept (larger than ${MAX_IMAGE_BYTES} bytes)` };
      else if (photo) image = { bytes: Buffer.from(photo.data, "base64"), path: photo.path };
      yield ok(recipe, { image, sourceId: typeof json.uid === "string" ? `paprika:${json.uid}` : null });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
