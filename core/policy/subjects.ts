/**
 * The shapes policies read, and the verdict they return. Each shape is the smallest slice of a record
 * a rule needs, so core passes its records (UserRecord, HouseholdRecord) and the web UI passes the
 * wire shapes it holds (UserOut, Recipe) without converting. Type-only imports keep this module free
 * of zod and Node at run time: the browser bundle reuses every policy.
 */
import type { GroupRecord, HouseholdPreferences, UserRecord } from "../schemas/records.js";
import type { RecipeSettings, RecipeSummary } from "../schemas/recipe.js";

/** The per-user flags of spec §6, in the order the UI lists them. */
export const PERMISSION_FLAGS = [
  "admin",
  "advanced",
  "canInvite",
  "canManage",
  "canManageHousehold",
  "canOrganize",
] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];

/** The flags a user holds; every flag is required so a missing one cannot read as "allowed". */
export type PermissionHolder = Pick<UserRecord, PermissionFlag>;

/** A signed-in user as the policies see them: identity, membership and flags. */
export type PolicyUser = Pick<UserRecord, "id" | "groupId" | "householdId"> & PermissionHolder;

/**
 * A user together with their group's slug, for rules that compare against a route's `groupSlug`.
 * UserRecord has no slug (it is derived from the group), so core adds it; UserOut already has it.
 */
export type RoutedUser = PolicyUser & { groupSlug: string };

/** The recipe fields permission rules read; a wire Recipe fits. */
export type PolicyRecipe = Pick<RecipeSummary, "userId" | "groupId" | "householdId"> & {
  settings: Pick<RecipeSettings, "public" | "locked">;
};

/** Household preferences a recipe rule reads; `undefined` from a lookup means "unknown", which denies. */
export type HouseholdPolicyPrefs = Pick<
  HouseholdPreferences,
  "privateHousehold" | "lockRecipeEditsFromOtherHouseholds"
>;
export type GroupPolicyPrefs = Pick<GroupRecord["preferences"], "privateGroup">;

/**
 * A verdict with the reason for a refusal. Services turn a refusal into ForbiddenError (or 400 where
 * Mealie answers 400); the UI hides the control and may show the reason.
 */
export type Decision = { ok: true } | Refusal;
export type Refusal = { ok: false; reason: string };

export const ALLOW: Decision = Object.freeze({ ok: true });

export function deny(reason: string): Refusal {
  return { ok: false, reason };
}

/** One rule of an ordered policy: the first rule that returns a verdict decides. */
export interface Rule<Args extends unknown[]> {
  /** The rule as a sentence; documents the table and names the rule in test failures. */
  readonly says: string;
  readonly decide: (...args: Args) => Decision | undefined;
}

/** Runs an ordered rule table; `otherwise` applies when no rule has an opinion. */
export function firstVerdict<Args extends unknown[]>(
  rules: readonly Rule<Args>[],
  args: Args,
  otherwise: Decision,
): Decision {
  for (const rule of rules) {
    const verdict = rule.decide(...args);
    if (verdict) return verdict;
  }
  return otherwise;
}
