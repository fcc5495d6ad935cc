/**
 * The household scope of Mealie's recipe sub-routes (mealie-api-notes §0): image, assets, exports and
 * bulk actions look recipes up in the caller's household, so another household's recipe is a 404 there
 * while the main CRUD routes work group-wide. Group isolation comes first and is absolute: the lookup
 * goes through RecipesService.find, which only ever sees the caller's group.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import type { UserRecord } from "../schemas/records.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { ForbiddenError, NotFoundError } from "../errors.js";
import { canUpdateRecipe } from "../policy/recipes.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes">;

export interface ScopedRecipe {
  entry: RecipeEntry;
  group: GroupData;
  user: UserRecord;
}

/** A recipe of the actor's group AND household, by slug or id; anything else is "No Entry Found". */
export function findHouseholdRecipe(larder: Deps, actor: Actor, slugOrId: string): ScopedRecipe {
  const found = larder.recipes.find(actor, slugOrId);
  if (larder.recipes.summaryOf(found.entry).householdId !== found.user.householdId)
    throw new NotFoundError("No Entry Found");
  return found;
}

/** Whether the user may change this recipe (core/policy's edit rule, with the household preferences). */
export function mayEditRecipe(larder: Deps, user: UserRecord, entry: RecipeEntry): boolean {
  const s = larder.recipes.summaryOf(entry);
  return canUpdateRecipe(
    user,
    {
      userId: s.userId,
      groupId: s.groupId,
      householdId: s.householdId,
      settings: { public: entry.doc.settings.public ?? false, locked: entry.doc.settings.locked ?? false },
    },
    { householdPrefsOf: (hid: string) => larder.groups.householdById(hid)?.household.doc.data.preferences },
  );
}

/** 403 "Permission Denied" unless the user may change the recipe. */
export function assertMayEditRecipe(larder: Deps, user: UserRecord, entry: RecipeEntry): void {
  if (!mayEditRecipe(larder, user, entry)) throw new ForbiddenError("Permission Denied");
}

/** A fresh copy of the entry's document with `dateUpdated` set, for a store save. */
export function touchedDoc(entry: RecipeEntry): RecipeEntry["doc"] {
  return { ...structuredClone(entry.doc), dateUpdated: new Date().toISOString() };
}
