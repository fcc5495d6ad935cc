/** Tandoor: a zip of per-recipe zips, each holding `recipe.json` and `image.*`. */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ArchiveEntry,
  type ReaderContext,
  basename,
  imageType,
  isJunk,
  openInnerZip,
  stem,
} from "../shared/archive.js";
import { cleanRecipe, type Loose } from "../shared/clean.js";
import { failed, ok, pictureAt, recipeObject, wrongType } from "../shared/entry.js";
import { MAX_NESTED_EXPORT_BYTES, mayBeZippedExport } from "../shared/nested.js";

/** One recipe's zip: its JSON and a picture, never large. */
const MAX_INNER_ZIP = 64 * 1024 * 1024;

function amountText(v: unknown): string {
  // A number in Tandoor's exports; a decimal string ("2.000") when a serializer renders decimals as text.
  const n = typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n === 0) return "";
  return String(Math.round(n * 1000) / 1000);
}

/** A Tandoor ingredient as one line: "2 oz New Mexico chile, dry 57 g". */
export function tandoorIngredient(i: Loose): string {
  const food = (i.food as Loose | null | undefined)?.name;
  const unit = (i.unit as Loose | null | undefined)?.name;
  const parts = [
    i.no_amount ? "" : amountText(i.amount),
    typeof unit === "string" ? unit : "",
    typeof food === "string" ? food : "",
    typeof i.note === "string" ? i.note : "",
  ];
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join(" ");
}

/**
 * The objects of a list field. Exports from other Tandoor versions and hand-edited files carry null
 * where a list or an item is expected (`"steps": null`, `[null, {...}]`); those hold nothing to import.
 */
const objects = (v: unknown): Loose[] =>
  Array.isArray(v) ? v.filter((x): x is Loose => !!x && typeof x === "object" && !Array.isArray(x)) : [];

/** A count that serializers write either as a number or as its text ("4", "2.000"). */
function count(v: unknown): number | null {
  const n = typeof v === "string" && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : null;
}

export function tandoorRecipe(json: Loose) {
  const ingredientObjects: Array<{ title: string | null; note: string }> = [];
  const steps: Array<{ title: string; text: string }> = [];
  for (const step of objects(json.steps)) {
    let title: string | null = typeof step.name === "string" && step.name.trim() ? step.name.trim() : null;
    for (const ing of objects(step.ingredients)) {
      if (ing.is_header) {
        title = tandoorIngredient(ing) || title;
        continue;
      }
      const note = tandoorIngredient(ing);
      if (!note) continue;
      ingredientObjects.push({ title, note });
      title = null;
    }
    // Recipes Tandoor took in from other apps can keep CRLF line ends; the Markdown reads the same without.
    const text = typeof step.instruction === "string" ? step.instruction.replace(/\r\n?/g, "\n").trim() : "";
    if (text) steps.push({ title: typeof step.name === "string" ? step.name.trim() : "", text });
  }
  const nutrition = json.nutrition && typeof json.nutrition === "object" ? (json.nutrition as Loose) : null;
  const servings = count(json.servings);
  const servingsText = typeof json.servings_text === "string" ? json.servings_text.trim() : "";
  const recipe = cleanRecipe({
    name: json.name,
    description: json.description,
    ingredientObjects,
    tags: objects(json.keywords)
      .map((k) => k.name)
      .filter((n) => typeof n === "string"),
    prepTime: json.working_time,
    performTime: json.waiting_time,
    timesInMinutes: true,
    recipeYield: servings ? [servings, servingsText].filter(Boolean).join(" ") : servingsText,
    recipeServings: servings ?? undefined,
    orgURL: json.source_url,
    nutrition: nutrition
      ? {
          calories: nutrition.calories,
          carbohydrateContent: nutrition.carbohydrates,
          fatContent: nutrition.fats,
          proteinContent: nutrition.proteins,
        }
      : undefined,
  });
  // Steps keep their own Markdown: cleaning would flatten headings and links written in Tandoor.
  recipe.recipeInstructions = steps;
  return recipe;
}

/**
 * The export itself when the upload is the export zipped again: its only zip holds zips and no JSON.
 * A zip of recipe zips reads like any other, so the shared unwrapping (which needs "no zip found")
 * never sees this case.
 */
async function zippedAgain(archive: Archive, inner: ArchiveEntry[]): Promise<Archive | null> {
  if (inner.length !== 1 || !mayBeZippedExport(inner[0])) return null;
  const only = await openInnerZip(archive, inner[0].path, MAX_NESTED_EXPORT_BYTES).catch(() => null);
  const files = only?.entries.filter((e) => !isJunk(e.path)) ?? [];
  const isExport =
    files.some((e) => e.path.toLowerCase().endsWith(".zip")) &&
    !files.some((e) => e.path.toLowerCase().endsWith(".json"));
  if (isExport) return only;
  only?.close();
  return null;
}

export async function* readTandoor(
  archive: Archive,
  ctx?: ReaderContext,
  depth = 0,
): AsyncGenerator<MigratedEntry> {
  const inner = archive.entries.filter((e) => !isJunk(e.path) && e.path.toLowerCase().endsWith(".zip"));
  if (inner.length === 0) throw wrongType("Tandoor", "no per-recipe zip holding recipe.json was found");
  const wrapped = depth < 2 ? await zippedAgain(archive, inner) : null;
  if (wrapped) {
    try {
      yield* readTandoor(wrapped, ctx, depth + 1);
    } finally {
      wrapped.close();
    }
    return;
  }
  const sources: Array<{ label: string; open: () => Promise<Archive> }> = inner.map((e) => ({
    label: stem(e.path),
    open: () => openInnerZip(archive, e.path, MAX_INNER_ZIP),
  }));
  ctx?.onTotal?.(sources.length);
  for (const src of sources) {
    // Tandoor names each inner zip after its recipe with spaces as underscores ("Lentil_Soup.zip").
    let name = src.label.replace(/_/g, " ");
    let zip: Archive | null = null;
    try {
      zip = await src.open();
      const jsons = zip.entries.filter((e) => e.path.toLowerCase().endsWith(".json") && !isJunk(e.path));
      // recipe.json in every Tandoor export seen; another name is taken when it is the zip's only JSON.
      const jsonPath = (
        jsons.find((e) => basename(e.path) === "recipe.json") ?? (jsons.length === 1 ? jsons[0] : null)
      )?.path;
      if (!jsonPath) throw new Error("recipe.json is missing");
      const json = recipeObject(await zip.readText(jsonPath), basename(jsonPath));
      if (typeof json.name === "string" && json.name.trim()) name = json.name;
      // A recipe without a name keeps its zip's name rather than becoming "Untitled".
      const recipe = tandoorRecipe({ ...json, name });
      const img = zip.entries.find((e) => stem(e.path) === "image" && imageType(e.path));
      const image = img ? await pictureAt(zip, img.path) : null;
      yield ok(recipe, { image, sourceId: recipe.orgURL ? null : `tandoor:${recipe.name}` });
    } catch (e) {
      yield failed(name, e);
    } finally {
      zip?.close();
    }
  }
}
