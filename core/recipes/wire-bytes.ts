/**
 * A recipe summary on the wire (issue 21): turning the 30 summaries of a list page into JSON, and that
 * text into bytes for the socket, cost a served search more than the search itself. The JSON of each
 * summary is kept as bytes against its index entry. An entry is made again whenever its recipe or its
 * rating changes (recipe-list.ts `entryOf`, `forgetRecipes`), so the bytes go with the entry they
 * were made from: no change event of their own to hear, never older than the entry.
 */
import type { RecipeIndexEntry } from "../query/attributes.js";
import type { RecipeSummary } from "../schemas/recipe.js";

/** The summary part of an entry; one literal (one shape) rather than keys copied in a loop. */
export function pick(e: RecipeIndexEntry): RecipeSummary {
  return {
    id: e.id,
    userId: e.userId,
    householdId: e.householdId,
    groupId: e.groupId,
    name: e.name,
    slug: e.slug,
    image: e.image,
    recipeServings: e.recipeServings,
    recipeYieldQuantity: e.recipeYieldQuantity,
    recipeYield: e.recipeYield,
    totalTime: e.totalTime,
    prepTime: e.prepTime,
    cookTime: e.cookTime,
    performTime: e.performTime,
    description: e.description,
    recipeCategory: e.recipeCategory,
    tags: e.tags,
    tools: e.tools,
    rating: e.rating,
    orgURL: e.orgURL,
    dateAdded: e.dateAdded,
    dateUpdated: e.dateUpdated,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    lastMade: e.lastMade,
  };
}

const bytesOf = new WeakMap<RecipeIndexEntry, Buffer>();

/**
 * `JSON.stringify(pick(entry))` as UTF-8 bytes, made once per entry. In memory of their own, not a
 * slice of node's shared 8 KB pool: a kept slice keeps its whole slab, and the slabs a summary lands
 * in are mostly filled with a request's short-lived buffers, so pooled summaries held about twice
 * their size (decision 0186).
 */
export function summaryBytes(entry: RecipeIndexEntry): Buffer {
  let bytes = bytesOf.get(entry);
  if (!bytes) {
    const json = JSON.stringify(pick(entry));
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    bytes.write(json);
    bytesOf.set(entry, bytes);
  }
  return bytes;
}
