/** Shared scoping for the activity services: the caller's group, and who a user is on the wire. */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { UserRecord } from "../schemas/records.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "recipes" | "users">;

export function callerOf(larder: Deps, actor: Actor): { user: UserRecord; group: GroupData } {
  const { user, group } = larder.groups.scopeOf(actor);
  return { user, group };
}

/** The contract's UserBase; a user deleted since keeps their id with empty names. */
export function userBase(
  larder: Deps,
  userId: string,
): { id: string; username: string | null; admin: boolean; fullName: string | null } {
  const u = larder.users.byId(userId);
  return u
    ? { id: u.id, username: u.username, admin: u.admin, fullName: u.fullName }
    : { id: userId, username: null, admin: false, fullName: null };
}

/** True when the recipe exists in the group now (records of a hand-deleted file stay hidden until it returns). */
export function recipeInGroup(larder: Deps, g: GroupData, recipeId: string): boolean {
  const e = larder.recipes.entryById(recipeId);
  return e !== null && e.groupSlug === g.slug;
}
