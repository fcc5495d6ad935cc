/**
 * A pre-v1 Mealie export: `recipes/<slug>/<slug>.json` (snake_case keys) with `images/original.*`
 * beside it. Values are Mealie's own, so they are taken as they are rather than cleaned again.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ArchiveEntry,
  type ReaderContext,
  basename,
  dirname,
  entriesIn,
  imageType,
  isJunk,
  stem,
} from "../shared/archive.js";
import { cleanString, cleanTime, NUTRITION_KEYS, type CleanRecipe, type Loose } from "../shared/clean.js";
import { failed, ok, pictureAt, wrongType } from "../shared/entry.js";

const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pick = (o: Loose, key: string): unknown => o[key] ?? o[camel(key)];
/** A list field; a bare string (a hand-edited file) counts as one item per line. */
const list = (v: unknown): unknown[] =>
  Array.isArray(v) ? v : typeof v === "string" ? v.split(/\r?\n/).filter((l) => l.trim()) : [];
const nameOf = (v: unknown): string =>
  typeof v === "string"
    ? v
    : v && typeof v === "object" && typeof (v as Loose).name === "string"
      ? String((v as Loose).name)
      : "";

/**
 * One ingredient as a line. With amounts enabled (`disable_amount: false`), v0.5 keeps the amount in
 * `quantity`, `unit` and `food` and the note may be empty or just "sifted": the line is put back together
 * so that "2 cup flour sifted" is not lost to an empty note.
 */
function ingredientLine(o: Loose): string {
  const note = typeof o.note === "string" ? o.note : "";
  if (o.disable_amount !== false && o.disableAmount !== false) return note;
  const q =
    typeof o.quantity === "number" && o.quantity > 0 ? String(Math.round(o.quantity * 1000) / 1000) : "";
  return [q, nameOf(o.unit).trim(), nameOf(o.food).trim(), note.trim()].filter(Boolean).join(" ");
}

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
  const ingredients = list(pick(json, "recipe_ingredient"));
  const steps = list(pick(json, "recipe_instructions"));
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
  const notes = list(json.notes).flatMap((n) =>
    n && typeof n === "object" && typeof (n as Loose).text === "string"
      ? [{ title: String((n as Loose).title ?? ""), text: String((n as Loose).text) }]
      : [],
  );
  const yieldValue = pick(json, "recipe_yield");
  // v0.1–v0.3 wrote camelCase keys, and this one as `orgURL`.
  const orgURL = pick(json, "org_url") ?? json.orgURL;
  const extras =
    json.extras && typeof json.extras === "object" && !Array.isArray(json.extras)
      ? (json.extras as Loose)
      : undefined;
  const recipe: CleanRecipe = {
    name: cleanString(json.name) || "Untitled",
    description: typeof json.description === "string" ? json.description : "",
    recipeYield: typeof yieldValue === "string" || typeof yieldValue === "number" ? String(yieldValue) : "",
    recipeIngredient: ingredients.flatMap((i) => {
      if (typeof i === "string") return [{ title: null, note: i }];
      const o = (i ?? {}) as Loose;
      const note = ingredientLine(o);
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
    orgURL: typeof orgURL === "string" ? orgURL : null,
    notes,
  };
  const added = pick(json, "date_added");
  if (typeof added === "string" && /^\d{4}-\d{2}-\d{2}/.test(added)) recipe.dateAdded = added.slice(0, 10);
  if (typeof json.rating === "number" && json.rating > 0)
    recipe.rating = Math.min(5, Math.round(json.rating));
  if (extras && Object.keys(extras).length) recipe.extras = extras;
  return recipe;
}

/** A recipe file: `recipes/<slug>/<slug>.json`, or `recipes/<slug>.json` (v0.1–v0.3); not its assets. */
const RECIPE_FILE = /(^|\/)recipes\/([^/]+\/)?[^/]+\.json$/i;

/**
 * The recipe's picture. From v0.4 it sits beside the JSON (`recipes/<slug>/images/original.webp`, with
 * `min-` and `tiny-` copies); before that, every picture went into one `images/` folder next to
 * `recipes/`, named by the recipe's `image` field (`<slug>.jpg`), so only a picture with that name is taken.
 */
function pictureOf(archive: Archive, path: string, json: Loose, slug: string): ArchiveEntry | undefined {
  const dir = dirname(path);
  // By folder, from the archive's index: a scan of every entry per recipe made an export of
  // thousands of recipes (each with three pictures) take minutes.
  const imagesIn = (d: string) => entriesIn(archive, d).filter((e) => imageType(e.path) && !isJunk(e.path));
  if (RECIPE_FILE.exec(path)?.[2]) {
    const own = [...imagesIn(`${dir}/images`), ...imagesIn(dir)];
    return (
      own.find((e) => stem(e.path) === "original") ??
      own.find((e) => stem(e.path) === slug) ??
      own.find((e) => !/^(min|tiny)-/.test(basename(e.path)))
    );
  }
  const root = dirname(dir);
  const shared = imagesIn(root ? `${root}/images` : "images");
  const named = typeof json.image === "string" ? basename(json.image) : "";
  return (
    shared.find((e) => named && basename(e.path) === named) ??
    shared.find((e) => stem(e.path) === slug) ??
    imagesIn(`${root ? `${root}/images` : "images"}/${slug}`).find((e) => stem(e.path) === "original")
  );
}

export async function* readMealieAlpha(archive: Archive, ctx?: ReaderContext): AsyncGenerator<MigratedEntry> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && RECIPE_FILE.test(e.path));
  if (files.length === 0) throw wrongType("Mealie (pre-v1)", "no recipes/<slug>/<slug>.json file was found");
  ctx?.onTotal?.(files.length);
  for (const file of files) {
    const name = basename(file.path);
    try {
      let json: unknown;
      try {
        json = JSON.parse(await archive.readText(file.path));
      } catch (e) {
        // Mealie's report names the file and the decoder's complaint.
        throw Object.assign(new Error((e as Error).message), { name: "JSONDecodeError" });
      }
      if (!json || typeof json !== "object" || Array.isArray(json))
        throw new Error("the file holds no recipe (a JSON object was expected)");
      const recipe = alphaRecipe(json as Loose);
      const slug = typeof (json as Loose).slug === "string" ? String((json as Loose).slug) : stem(file.path);
      const img = pictureOf(archive, file.path, json as Loose, slug);
      const image = img ? await pictureAt(archive, img.path) : null;
      yield ok(recipe, { image, sourceId: `mealie:${slug}` });
    } catch (e) {
      yield failed(name, e);
    }
  }
}
