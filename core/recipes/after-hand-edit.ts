/**
 * A change of one recipe that meets a hand edit at save time (decision 0282). The store compares the
 * file with the version it indexed just before replacing it (decision 0017); when a person saved the
 * file in between, or the watcher had not yet taken in a save made just before the request, the store
 * reads the person's version into the index and refuses the write. Refusing was the safe answer, but a
 * script that edits a file and then sets a rating or a tag through the API a moment later met a 409
 * although nothing clashed. So the change is made again on the person's version, when that loses
 * nothing of theirs: changes computed from the current recipe (a rating, an image key, a rename of a
 * food) always, and a PUT or PATCH when the fields it sets are not ones the person changed too.
 */
import { isDeepStrictEqual } from "node:util";
import type { Recipe, RecipeInput } from "../schemas/recipe.js";
import { ChangedOnDiskError } from "./store/file-state.js";
import { contentDefaults } from "./fields.js";

/** A file saved by hand over and over is given up on after this many tries, with the 409. */
export const HAND_EDIT_TRIES = 3;

/**
 * Runs `attempt` again when its save met a hand edit; `attempt` reads the recipe afresh each time. The
 * error of the try before is given to the next one, which throws it to give up.
 */
export async function againAfterHandEdit<T>(
  attempt: (previous: ChangedOnDiskError | null) => Promise<T>,
): Promise<T> {
  let previous: ChangedOnDiskError | null = null;
  for (let n = 1; ; n++) {
    try {
      return await attempt(previous);
    } catch (e) {
      if (!(e instanceof ChangedOnDiskError) || n >= HAND_EDIT_TRIES) throw e;
      previous = e;
    }
  }
}

/**
 * Wire fields a PUT or PATCH body never sets: identity, ownership, what other routes own, and stamps
 * the write sets itself (`dateUpdated`) or reads from the body apart (`dateAdded`, `lastMade`).
 */
export const NOT_FROM_BODY: ReadonlySet<string> = new Set([
  "id",
  "userId",
  "groupId",
  "householdId",
  "slug",
  "rating",
  "comments",
  "createdAt",
  "updatedAt",
  "dateAdded",
  "image",
]);
/**
 * Read from the body apart from the fields. Not `updatedAt`: the try before checked the client's copy
 * against every hand edit the index had seen (decision 0017), and the one it had not is what this
 * patch is checked against field by field.
 */
const STAMPS_READ_APART = ["dateAdded", "lastMade"] as const;

/** PUT replaces the content but keeps identity, ownership and timestamps. */
export function replaceBase(current: Recipe): Record<string, unknown> {
  return {
    id: current.id,
    name: current.name,
    userId: current.userId,
    description: "",
    // The plain content fields (servings, yield, times, source URL) at their defaults.
    ...contentDefaults(),
    recipeCategory: [],
    tags: [],
    tools: [],
    recipeIngredient: [],
    recipeInstructions: [],
    nutrition: null,
    settings: current.settings,
    assets: current.assets,
    notes: [],
    extras: {},
  };
}

/**
 * The PATCH that makes `body` on the person's version (`disk`) of a recipe the body was meant for as
 * `before`, or null when a field the body sets was changed by the person to something else. A PUT
 * sets what it changes from `before` (a field it sends back as it was keeps the person's value); a
 * PATCH sets every field it names.
 */
export function patchOnTopOfHandEdit(
  before: Recipe,
  disk: Recipe,
  body: RecipeInput,
  mode: "put" | "patch",
): RecipeInput | null {
  const was = before as unknown as Record<string, unknown>;
  const now = disk as unknown as Record<string, unknown>;
  const wanted: Record<string, unknown> = mode === "put" ? replaceBase(before) : {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined && !NOT_FROM_BODY.has(k)) wanted[k] = v;
  if (body.settings) wanted.settings = { ...before.settings, ...body.settings };
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(wanted)) {
    if (NOT_FROM_BODY.has(k) || k === "dateUpdated" || k === "lastMade") continue;
    if (mode === "put" && isDeepStrictEqual(v, was[k])) continue;
    const theyChangedIt = !isDeepStrictEqual(now[k], was[k]);
    if (theyChangedIt && !isDeepStrictEqual(v, now[k])) return null;
    patch[k] = v;
  }
  for (const k of STAMPS_READ_APART) if (body[k] !== undefined) patch[k] = body[k];
  return patch as RecipeInput;
}
