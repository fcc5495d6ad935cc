/**
 * Who may read, edit, delete and lock a recipe, and which context-menu items a viewer sees
 * (spec §6, mealie-api-notes §5.4). Each policy is an ordered table of sentences; the first rule with
 * an opinion decides. Services throw on a refusal (NotFoundError for reads, so a private recipe's
 * existence does not leak; ForbiddenError for writes); the UI hides what the viewer cannot do.
 */
import type { Actor } from "../actor.js";
import { isOwnGroup } from "./users.js";
import {
  ALLOW,
  deny,
  firstVerdict,
  type Decision,
  type GroupPolicyPrefs,
  type HouseholdPolicyPrefs,
  type PolicyRecipe,
  type PolicyUser,
  type RoutedUser,
  type Rule,
} from "./subjects.js";

/** Lookups the edit rule needs; a full HouseholdPreferences fits. `undefined` = preferences unknown. */
export interface RecipeEditContext {
  householdPrefsOf(
    householdId: string,
  ): Pick<HouseholdPolicyPrefs, "lockRecipeEditsFromOtherHouseholds"> | undefined;
}

/** Lookups the read rule needs for outsiders: the privacy of the recipe's household and group. */
export interface RecipeReadContext {
  householdPrefsOf(householdId: string): Pick<HouseholdPolicyPrefs, "privateHousehold"> | undefined;
  groupPrefsOf(groupId: string): GroupPolicyPrefs | undefined;
}

// ---- reading ----

type ReadArgs = [viewer: PolicyUser | null, recipe: PolicyRecipe, ctx: RecipeReadContext];

/** Public reading needs all three switches open; an unknown household or group counts as private. */
export const RECIPE_READ_RULES: readonly Rule<ReadArgs>[] = [
  {
    says: "members of the recipe's group may read it",
    decide: (viewer, recipe) => (viewer !== null && viewer.groupId === recipe.groupId ? ALLOW : undefined),
  },
  {
    says: "outsiders may read only recipes marked public",
    decide: (_viewer, recipe) => (recipe.settings.public ? undefined : deny("the recipe is not public")),
  },
  {
    says: "outsiders may not read recipes of a private or unknown household",
    decide: (_viewer, recipe, ctx) =>
      ctx.householdPrefsOf(recipe.householdId)?.privateHousehold === false
        ? undefined
        : deny("the recipe's household is private"),
  },
  {
    says: "outsiders may not read recipes of a private or unknown group",
    decide: (_viewer, recipe, ctx) =>
      ctx.groupPrefsOf(recipe.groupId)?.privateGroup === false
        ? undefined
        : deny("the recipe's group is private"),
  },
];

/** Why `who` may or may not read the recipe. `who` is an Actor (core) or a user or null (the UI). */
export function recipeReadDecision(
  who: Actor | PolicyUser | null,
  recipe: PolicyRecipe,
  ctx: RecipeReadContext,
): Decision {
  return firstVerdict(RECIPE_READ_RULES, [viewerOf(who), recipe, ctx], ALLOW);
}

/** Same group, or public: the recipe, its household and its group all public. */
export function canReadRecipe(
  who: Actor | PolicyUser | null,
  recipe: PolicyRecipe,
  ctx: RecipeReadContext,
): boolean {
  return recipeReadDecision(who, recipe, ctx).ok;
}

// ---- editing and deleting ----

type EditArgs = [user: PolicyUser, recipe: PolicyRecipe, ctx: RecipeEditContext];

/**
 * Mealie's can_update, in its order (mealie-api-notes §5.4). Admins get no bypass: Mealie has none,
 * and an admin who needs to edit can do it through their own group like anyone else.
 */
export const RECIPE_EDIT_RULES: readonly Rule<EditArgs>[] = [
  {
    says: "the owner may always edit their recipe",
    decide: (user, recipe) => (user.id === recipe.userId ? ALLOW : undefined),
  },
  {
    says: "nobody outside the recipe's group may edit it",
    decide: (user, recipe) =>
      user.groupId === recipe.groupId ? undefined : deny("the recipe belongs to another group"),
  },
  {
    says: "another household may not edit it when the recipe's household locks edits or its preferences are unknown",
    decide: (user, recipe, ctx) => {
      if (user.householdId === recipe.householdId) return undefined;
      const prefs = ctx.householdPrefsOf(recipe.householdId);
      // Unknown preferences deny: the lock defaults to on, and guessing "off" would open every recipe.
      if (prefs === undefined) return deny("the recipe's household preferences are unknown");
      return prefs.lockRecipeEditsFromOtherHouseholds
        ? deny("the recipe's household locks edits from other households")
        : undefined;
    },
  },
  {
    says: "a locked recipe may be edited by its owner only",
    decide: (_user, recipe) =>
      recipe.settings.locked ? deny("the recipe is locked by its owner") : undefined,
  },
];

/** Why the user may or may not edit (or delete) the recipe; otherwise any group member may. */
export function recipeUpdateDecision(
  user: PolicyUser | null,
  recipe: PolicyRecipe,
  ctx: RecipeEditContext,
): Decision {
  if (user === null) return deny("sign in to change recipes");
  return firstVerdict(RECIPE_EDIT_RULES, [user, recipe, ctx], ALLOW);
}

/** Owner always; else same group, not blocked by the other household's lock, not locked. */
export function canUpdateRecipe(
  user: PolicyUser | null,
  recipe: PolicyRecipe,
  ctx: RecipeEditContext,
): boolean {
  return recipeUpdateDecision(user, recipe, ctx).ok;
}

/** Deleting follows the edit rule exactly (Mealie uses one check for both). */
export function canDeleteRecipe(
  user: PolicyUser | null,
  recipe: PolicyRecipe,
  ctx: RecipeEditContext,
): boolean {
  return recipeUpdateDecision(user, recipe, ctx).ok;
}

/** Only the owner may set or clear `settings.locked`; services compare old and new before asking. */
export function canChangeLocked(
  user: Pick<PolicyUser, "id"> | null,
  recipe: Pick<PolicyRecipe, "userId">,
): boolean {
  return user !== null && user.id === recipe.userId;
}

// ---- context menu ----

/** The recipe context menu's items, in display order. */
export const RECIPE_MENU_ITEMS = [
  "edit",
  "delete",
  "download",
  "duplicate",
  "mealplanner",
  "shoppingList",
  "share",
  "print",
  "printPreferences",
] as const;
export type RecipeMenuItem = (typeof RECIPE_MENU_ITEMS)[number];

/** anyone: visitors too; ownGroup: signed in and on their own group's routes; editor: ownGroup and may edit. */
export type MenuAudience = "anyone" | "ownGroup" | "editor";

/** Who sees each menu item (spec §6). */
export const RECIPE_MENU_AUDIENCE: Readonly<Record<RecipeMenuItem, MenuAudience>> = {
  edit: "editor",
  delete: "editor",
  download: "ownGroup",
  duplicate: "ownGroup",
  mealplanner: "ownGroup",
  shoppingList: "ownGroup",
  share: "ownGroup",
  print: "anyone",
  printPreferences: "anyone",
};

export type RecipeMenu = Record<RecipeMenuItem, boolean>;

/**
 * Which context-menu items the viewer sees on a recipe shown under `/g/{routeGroupSlug}`.
 * Edit and delete also need the edit rule; without `ctx` another household's preferences are
 * unknown, so the rule hides them there, as the server would refuse.
 */
export function recipeMenuItems(
  user: RoutedUser | null,
  routeGroupSlug: string | null | undefined,
  recipe: PolicyRecipe,
  ctx: RecipeEditContext = NO_PREFERENCES,
): RecipeMenu {
  const ownGroup = isOwnGroup(user, routeGroupSlug);
  const editor = ownGroup && canUpdateRecipe(user, recipe, ctx);
  const sees: Record<MenuAudience, boolean> = { anyone: true, ownGroup, editor };
  const menu = {} as RecipeMenu;
  for (const item of RECIPE_MENU_ITEMS) menu[item] = sees[RECIPE_MENU_AUDIENCE[item]];
  return menu;
}

const NO_PREFERENCES: RecipeEditContext = { householdPrefsOf: () => undefined };

function isActor(who: Actor | PolicyUser): who is Actor {
  return "kind" in who && (who.kind === "user" || who.kind === "public");
}

function viewerOf(who: Actor | PolicyUser | null): PolicyUser | null {
  if (who === null) return null;
  if (isActor(who)) return who.kind === "user" ? who.user : null;
  return who;
}
