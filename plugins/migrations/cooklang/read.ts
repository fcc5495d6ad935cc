/** Cooklang: a folder or zip of `.cook` files, each with its picture beside it (`Name.jpg`). */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ReaderContext,
  dirname,
  entriesIn,
  imageType,
  isJunk,
  stem,
} from "../shared/archive.js";
import { cleanRecipe, cleanString } from "../shared/clean.js";
import { failed, ok, pictureAt, wrongType } from "../shared/entry.js";
import { cooklangFields, ingredientLine, parseCooklang } from "./parse.js";

const MAX_COOK = 4 * 1024 * 1024;

/** Cooklang times are words already ("1 hour 30 minutes"); a bare number is minutes. */
function time(v: unknown): unknown {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^\d+$/.test(v.trim())) return Number(v.trim());
  return v;
}

export async function* readCooklang(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".cook"));
  if (files.length === 0) throw wrongType("Cooklang", "no .cook file was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    let name = stem(file.path);
    try {
      const parsed = parseCooklang(await archive.readText(file.path, MAX_COOK));
      const f = cooklangFields(parsed.metadata);
      if (typeof f.title === "string" && f.title.trim()) name = f.title.trim();
      const servingsNum = Number.parseFloat(String(f.servings ?? ""));
      const recipe = cleanRecipe({
        name,
        description: f.description,
        recipeYield: f.servings !== undefined ? String(f.servings) : undefined,
        recipeServings: Number.isFinite(servingsNum) ? servingsNum : undefined,
        ingredientObjects: parsed.ingredients.map((i) => ({ title: i.section, note: ingredientLine(i) })),
        tags: Array.isArray(f.tags) ? f.tags : typeof f.tags === "string" ? f.tags : undefined,
        categories: f.categories,
        tools: parsed.cookware,
        totalTime: time(f.totalTime),
        prepTime: time(f.prepTime),
        performTime: time(f.cookTime),
        timesInMinutes: true,
        orgURL: f.source,
        notes: parsed.notes,
      });
      recipe.recipeInstructions = parsed.steps.map((s) => ({
        title: s.section ?? "",
        text: cleanString(s.text),
      }));
      const dir = dirname(file.path);
      const base = stem(file.path);
      const img = entriesIn(archive, dir).find((e) => stem(e.path) === base && imageType(e.path));
      const image = img ? await pictureAt(archive, img.path) : null;
      yield ok(recipe, { image, sourceId: recipe.orgURL ? null : `cooklang:${file.path}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
