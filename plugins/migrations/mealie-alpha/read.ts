/**
 * A pre-v1 Mealie export: `recipes/<slug>/<slug>.json` (snake_case keys) with `images/original.*`
 * beside it. Values are Mealie's own, so they are taken as they are rather than cleaned again.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ReaderContext,
  basename,
  dirname,
  imageType,
  isJunk,
  stem,
} from "../shared/archive.js";
import { cleanString, cleanTime, NUTRITION_KEYS, type CleanRecipe, type Loose } from "../shared/clean.js";
import { failed, MAX_IMAGE_BYTES, ok, wrongType } from "../shared/entry.js";

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pick = (o: Loose, key: string): unknown => o[key] ?? o[camel(key)];

function names(v: unknown): Array<{ name: string }> {
  if (!Array.isArray(v)) return [];
  const out: Array<{ name: string }> = [];
  for (const item of v) {
    const n =
      typeof item === "string" ? item : item && typeof item === "object" ? (item as Loose).name : null;
    if (typeof n === "string" && n.trim() && !out.some((o) => o.name === n.trim()))
      out.push({ name: n.trim() });
  }
  return out;
}

export function alphaRecipe(json: Loose): CleanRecipe {
  const ingredients = (pick(json, "recipe_ingredient") as unknown[] | undefined) ?? [];
  const steps = (pick(json, "recipe_instructions") as unknown[] | undefined) ?? [];
  const nutrition: Record<string, string> = {};
  const rawNutrition = (json.nutrition ?? {}) as Loose;
  for (const [k, v] of Object.entries(rawNutrition)) {
    const key = camel(k);
    // Kept even when blank: Mealie keeps an empty value as set, and so does its upstream test.
    if (
      (NUTRITION_KEYS as readonly string[]).includes(key) &&
      (typeof v === "string" || typeof v === "number")
    )
      nutrition[key] = String(v);
  }
  const notes = ((json.notes as unknown[]) ?? []).flatMap((n) =>
    n && typeof n === "object" && typeof (n as Loose).text === "string"
      ? [{ title: String((n as Loose).title ?? ""), text: String((n as Loose).text) }]
      : [],
  );
  const extras =
    json.extras && typeof json.extras === "object" && !Array.isArray(json.extras)
      ? (json.extras as Loose)
      : undefined;
  const recipe: CleanRecipe = {
    name: cleanString(json.name) || "Untitled",
    description: typeof json.description === "string" ? json.description : "",
    recipeYield: typeof pick(json, "recipe_yield") === "string" ? String(pick(json, "recipe_yield")) : "",
    recipeIngredient: ingredients.flatMap((i) => {
      if (typeof i === "string") return [{ title: null, note: i }];
      const o = (i ?? {}) as Loose;
      const note = typeof o.note === "string" ? o.note : "";
      const title = typeof o.title === "string" && o.title ? o.title : null;
      return note || title ? [{ title, note }] : [];
    }),
    recipeInstructions: steps.flatMap((s) => {
      if (typeof s === "string") return [{ title: "", text: s }];
      const o = (s ?? {}) as Loose;
      return typeof o.text === "string"
        ? [{ title: typeof o.title === "string" ? o.title : "", text: o.text }]
        : [];
    }),
    totalTime: cleanTime(pick(json, "total_time")),
    prepTime: cleanTime(pick(json, "prep_time")),
    performTime: cleanTime(pick(json, "perform_time") ?? pick(json, "cook_time")),
    tags: names(json.tags),
    recipeCategory: names(pick(json, "recipe_category") ?? json.categories),
    tools: names(json.tools),
    nutrition,
    orgURL: typeof pick(json, "org_url") === "string" ? String(pick(json, "org_url")) : null,
    notes,
  };
  const added = pick(json, "date_added");
  if (typeof added === "string" && /^\d{4}-\d{2}-\d{2}/.test(added)) recipe.dateAdded = added.slice(0, 10);
  if (typeof json.rating === "number" && json.rating > 0)
    recipe.rating = Math.min(5, Math.round(json.rating));
  if (extras && Object.keys(extras).length) recipe.extras = extras;
  return recipe;
}

export async function* readMealieAlpha(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  // recipes/<slug>/<slug>.json; older exports put the JSON straight into recipes/.
  const files = archive.entries.filter(
    (e) => !isJunk(e.path) && /(^|\/)recipes\/(.+\/)?[^/]+\.json$/i.test(e.path),
  );
  if (files.length === 0) throw wrongType("Mealie (pre-v1)", "no recipes/<slug>/<slug>.json file was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    const name = basename(file.path);
    try {
      let json: Loose;
      try {
        json = JSON.parse(await archive.readText(file.path)) as Loose;
      } catch (e) {
        // Mealie's report names the file and the decoder's complaint.
        throw Object.assign(new Error((e as Error).message), { name: "JSONDecodeError" });
      }
      const recipe = alphaRecipe(json);
      const dir = dirname(file.path);
      const slug = typeof json.slug === "string" ? json.slug : stem(file.path);
      const candidates = archive.entries.filter(
        (e) =>
          imageType(e.path) &&
          !isJunk(e.path) &&
          (dirname(e.path) === `${dir}/images` || dirname(e.path) === dir),
      );
      const img =
        candidates.find((e) => stem(e.path) === "original") ??
        candidates.find((e) => stem(e.path) === slug) ??
        candidates.find((e) => !/^(min|tiny)-/.test(basename(e.path)));
      const image = img ? { bytes: await archive.read(img.path, MAX_IMAGE_BYTES), path: img.path } : null;
      yield ok(recipe, { image, sourceId: `mealie:${slug}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
