/**
 * What a viewer may see and do on the recipe page (spec §6). A replica of core/policy's recipe rules
 * (recipeMenuItems, canUpdateRecipe, isOwnGroup): web/app may not load core at run time (the
 * `larder:no-core-in-bundle` build check), so recipe-policy.test.ts runs both over every case and fails
 * when they drift. Core still enforces every write; this only hides what the server would refuse.
 */

export interface ViewerUser {
  id: string;
  groupId: string;
  householdId: string;
  groupSlug: string;
  admin: boolean;
}

export interface PolicyRecipeLike {
  userId: string;
  groupId: string;
  householdId: string;
  settings: { locked: boolean };
}

/** Household lookup; `undefined` = preferences unknown, which denies like core. */
export type HouseholdLock = (householdId: string) => { lockRecipeEditsFromOtherHouseholds: boolean } | undefined;

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
export type RecipeMenu = Record<RecipeMenuItem, boolean>;

/** Signed in and on their own group's routes (spec §6). */
export function isOwnGroup(user: Pick<ViewerUser, "groupSlug"> | null, routeGroupSlug: string | null | undefined): boolean {
  return user !== null && typeof routeGroupSlug === "string" && routeGroupSlug !== "" && user.groupSlug === routeGroupSlug;
}

/** core's RECIPE_EDIT_RULES in order: owner; same group; other household's lock; recipe lock. */
export function canUpdateRecipe(user: ViewerUser | null, recipe: PolicyRecipeLike, lockOf: HouseholdLock): boolean {
  if (user === null) return false;
  if (user.id === recipe.userId) return true;
  if (user.groupId !== recipe.groupId) return false;
  if (user.householdId !== recipe.householdId) {
    const prefs = lockOf(recipe.householdId);
    if (prefs === undefined || prefs.lockRecipeEditsFromOtherHouseholds) return false;
  }
  return !recipe.settings.locked;
}

const AUDIENCE: Record<RecipeMenuItem, "anyone" | "ownGroup" | "editor"> = {
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

/** The context-menu items the viewer sees on a recipe shown under /g/{routeGroupSlug}. */
export function recipeMenuItems(
  user: ViewerUser | null,
  routeGroupSlug: string | null | undefined,
  recipe: PolicyRecipeLike,
  lockOf: HouseholdLock,
): RecipeMenu {
  const ownGroup = isOwnGroup(user, routeGroupSlug);
  const sees = { anyone: true, ownGroup, editor: ownGroup && canUpdateRecipe(user, recipe, lockOf) };
  const menu = {} as RecipeMenu;
  for (const item of RECIPE_MENU_ITEMS) menu[item] = sees[AUDIENCE[item]];
  return menu;
}
