/**
 * Attribute tables for the entities whose lists take `queryFilter` and `orderBy`: recipes, foods,
 * units, organizers (tags, categories, tools) and users. Paths follow Mealie's model and relation
 * names (mealie-api-notes §3), including its proxies (`household_id` and
 * `household.preferences.privateHousehold` on recipes).
 */
import {
  RECIPE_SETTING_KEYS,
  type IngredientFood,
  type IngredientUnit,
  type RecipeSettings,
  type RecipeSummary,
} from "../schemas/recipe.js";
import { AttributeTable, attr, organizerPaths, type AttributeSpec } from "./attribute-table.js";
import type { OrderOverride } from "./order.js";
import { FILTERED_FIELDS } from "../recipes/fields.js";

export * from "./attribute-table.js";

/**
 * What the recipe index holds per recipe: the list item plus what filters and search read beyond it.
 * The store fills it; list routes present the `RecipeSummary` part.
 */
export type RecipeIndexEntry = RecipeSummary & {
  settings: RecipeSettings;
  household: { id: string; slug?: string; name?: string; preferences: { privateHousehold: boolean } };
  user: { id: string; username: string | null };
  /** Foods referenced by the recipe's ingredients (`recipeIngredient.food.*`). */
  foods: { id: string; name: string }[];
  /** Ingredient lines as text (display, note, original text) for search. */
  ingredientTexts: string[];
};

type R = RecipeIndexEntry;
const recipeSpecs: Record<string, AttributeSpec<R>> = {
  id: attr.uuid((r: R) => r.id),
  userId: attr.uuid((r: R) => r.userId),
  "user.id": attr.uuid((r: R) => r.user?.id ?? r.userId),
  "user.username": attr.string((r: R) => r.user?.username),
  householdId: attr.uuid((r: R) => r.householdId),
  "household.id": attr.uuid((r: R) => r.household?.id ?? r.householdId),
  "household.slug": attr.string((r: R) => r.household?.slug),
  "household.name": attr.string((r: R) => r.household?.name),
  "household.preferences.privateHousehold": attr.boolean((r: R) => r.household?.preferences.privateHousehold),
  groupId: attr.uuid((r: R) => r.groupId),
  "group.id": attr.uuid((r: R) => r.groupId),
  slug: attr.string((r: R) => r.slug),
  description: attr.string((r: R) => r.description),
  rating: attr.number((r: R) => r.rating),
  dateAdded: attr.date((r: R) => r.dateAdded),
  createdAt: attr.datetime((r: R) => r.createdAt),
  updatedAt: attr.datetime((r: R) => r.updatedAt),
  // Mealie's column is `update_at`; clients that read its schema write that.
  updateAt: attr.datetime((r: R) => r.updatedAt),
  ...organizerPaths(["tags"], (r: R) => r.tags),
  ...organizerPaths(["recipeCategory", "categories"], (r: R) => r.recipeCategory),
  ...organizerPaths(["tools"], (r: R) => r.tools),
  "recipeIngredient.food.id": attr.many("uuid", (r: R) => r.foods.map((f) => f.id)),
  "recipeIngredient.food.name": attr.many("string", (r: R) => r.foods.map((f) => f.name)),
  "foods.id": attr.many("uuid", (r: R) => r.foods.map((f) => f.id)),
  "foods.name": attr.many("string", (r: R) => r.foods.map((f) => f.name)),
};
// The fields the file and the wire share, as their declaration says to read them (core/recipes/fields.ts).
for (const { wire, filter } of FILTERED_FIELDS) recipeSpecs[wire] = attr[filter]((r: R) => r[wire]);
for (const key of RECIPE_SETTING_KEYS)
  recipeSpecs[`settings.${key}`] = attr.boolean((r: R) => r.settings?.[key]);

export const recipeAttributes = new AttributeTable<RecipeIndexEntry>("recipe", recipeSpecs);

/**
 * Recipe `orderBy=rating`: the caller's own rating when they rated the recipe (> 0), else the average;
 * 0 counts as unrated. Unrated recipes go last unless `orderByNullPosition=first`.
 */
export function recipeRatingOrder(
  ownRating?: ReadonlyMap<string, number> | ((recipeId: string) => number | null | undefined),
): OrderOverride<RecipeIndexEntry> {
  const own = typeof ownRating === "function" ? ownRating : (id: string) => ownRating?.get(id);
  return {
    type: "number",
    nullPosition: "last",
    get: (r) => {
      const mine = own(r.id);
      if (mine != null && mine > 0) return mine;
      return r.rating != null && r.rating > 0 ? r.rating : null;
    },
  };
}

type F = IngredientFood;
export const foodAttributes = new AttributeTable<IngredientFood>("food", {
  id: attr.uuid((f: F) => f.id),
  name: attr.string((f: F) => f.name),
  pluralName: attr.string((f: F) => f.pluralName),
  description: attr.string((f: F) => f.description),
  onHand: attr.boolean((f: F) => f.onHand),
  groupId: attr.uuid((f: F) => f.groupId),
  labelId: attr.uuid((f: F) => f.labelId),
  "label.id": attr.uuid((f: F) => f.label?.id),
  "label.name": attr.string((f: F) => f.label?.name),
  "aliases.name": attr.many("string", (f: F) => f.aliases.map((a) => a.name)),
  createdAt: attr.datetime((f: F) => f.createdAt),
  updatedAt: attr.datetime((f: F) => f.updatedAt),
  updateAt: attr.datetime((f: F) => f.updatedAt),
});

type U = IngredientUnit;
export const unitAttributes = new AttributeTable<IngredientUnit>("unit", {
  id: attr.uuid((u: U) => u.id),
  name: attr.string((u: U) => u.name),
  pluralName: attr.string((u: U) => u.pluralName),
  description: attr.string((u: U) => u.description),
  abbreviation: attr.string((u: U) => u.abbreviation),
  pluralAbbreviation: attr.string((u: U) => u.pluralAbbreviation),
  useAbbreviation: attr.boolean((u: U) => u.useAbbreviation),
  fraction: attr.boolean((u: U) => u.fraction),
  standardQuantity: attr.number((u: U) => u.standardQuantity),
  standardUnit: attr.string((u: U) => u.standardUnit),
  groupId: attr.uuid((u: U) => u.groupId),
  "aliases.name": attr.many("string", (u: U) => u.aliases.map((a) => a.name)),
  createdAt: attr.datetime((u: U) => u.createdAt),
  updatedAt: attr.datetime((u: U) => u.updatedAt),
  updateAt: attr.datetime((u: U) => u.updatedAt),
});

/** What organizer lists (tags, categories, tools) need from an item. */
export interface OrganizerQueryItem {
  id: string;
  name: string;
  slug: string;
  groupId: string;
  createdAt?: string | null;
  updatedAt?: string | null;
  /** Tools only. */
  onHand?: boolean;
}
type O = OrganizerQueryItem;
export const organizerAttributes = new AttributeTable<OrganizerQueryItem>("organizer", {
  id: attr.uuid((o: O) => o.id),
  name: attr.string((o: O) => o.name),
  slug: attr.string((o: O) => o.slug),
  groupId: attr.uuid((o: O) => o.groupId),
  "group.id": attr.uuid((o: O) => o.groupId),
  onHand: attr.boolean((o: O) => o.onHand),
  createdAt: attr.datetime((o: O) => o.createdAt),
  updatedAt: attr.datetime((o: O) => o.updatedAt),
  updateAt: attr.datetime((o: O) => o.updatedAt),
});

/** What user lists need from an item. */
export interface UserQueryItem {
  id: string;
  username: string | null;
  fullName: string | null;
  email: string;
  admin: boolean;
  groupId: string;
  householdId: string;
  createdAt?: string | null;
  updatedAt?: string | null;
}
type Us = UserQueryItem;
const userSummarySpecs = {
  id: attr.uuid((u: Us) => u.id),
  username: attr.string((u: Us) => u.username),
  fullName: attr.string((u: Us) => u.fullName),
  groupId: attr.uuid((u: Us) => u.groupId),
  "group.id": attr.uuid((u: Us) => u.groupId),
  householdId: attr.uuid((u: Us) => u.householdId),
  "household.id": attr.uuid((u: Us) => u.householdId),
  createdAt: attr.datetime((u: Us) => u.createdAt),
  updatedAt: attr.datetime((u: Us) => u.updatedAt),
  updateAt: attr.datetime((u: Us) => u.updatedAt),
};
export const userAttributes = new AttributeTable<UserQueryItem>("user", {
  ...userSummarySpecs,
  admin: attr.boolean((u: Us) => u.admin),
  email: attr.string((u: Us) => u.email),
});
/**
 * A user as a member sees one outside their household (Mealie's `UserSummary`): no e-mail and no admin
 * flag, so that a filter (`email LIKE "a%"`, `household.users.admin = true`) is no oracle for what the
 * answer hides.
 */
export const userSummaryAttributes = new AttributeTable<UserQueryItem>("user", userSummarySpecs);
