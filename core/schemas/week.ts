/**
 * The household's week (issue 14): meal-plan entries and rules (`mealplans.json`,
 * `mealplan-rules.json`) and shopping lists (one file per list under `shopping-lists/`). What is
 * stored is the minimum: wire fields that are derived (groupId, householdId, display, food, unit,
 * label, recipe summaries) are added by the presenters, never written twice.
 */
import { z } from "zod";

const ts = z.string().nullable().default(null);

export const PLAN_ENTRY_TYPES = [
  "breakfast",
  "lunch",
  "dinner",
  "side",
  "snack",
  "drink",
  "dessert",
] as const;
export type PlanEntryType = (typeof PLAN_ENTRY_TYPES)[number];
export const PLAN_RULE_DAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "unset",
] as const;
export const PLAN_RULE_TYPES = [...PLAN_ENTRY_TYPES, "unset"] as const;

export const PlanEntryRecord = z.object({
  id: z.number().int().positive(),
  date: z.string(),
  entryType: z.enum(PLAN_ENTRY_TYPES).default("dinner"),
  title: z.string().default(""),
  text: z.string().default(""),
  recipeId: z.string().nullable().default(null),
  userId: z.string(),
  createdAt: ts,
  updatedAt: ts,
});
export type PlanEntryRecord = z.infer<typeof PlanEntryRecord>;
export const MealplansDoc = z.object({
  /** The next entry id: Mealie's plan ids are integers, and a deleted id is never handed out again. */
  nextId: z.number().int().positive().default(1),
  entries: z.array(PlanEntryRecord).default([]),
});
export type MealplansDoc = z.infer<typeof MealplansDoc>;

export const PlanRuleRecord = z.object({
  id: z.string(),
  day: z.enum(PLAN_RULE_DAYS).default("unset"),
  entryType: z.enum(PLAN_RULE_TYPES).default("unset"),
  queryFilterString: z.string().default(""),
  createdAt: ts,
  updatedAt: ts,
});
export type PlanRuleRecord = z.infer<typeof PlanRuleRecord>;
export const PlanRulesDoc = z.object({ rules: z.array(PlanRuleRecord).default([]) });
export type PlanRulesDoc = z.infer<typeof PlanRulesDoc>;

export const ItemRecipeRef = z.object({
  id: z.string(),
  recipeId: z.string(),
  recipeQuantity: z.number().default(0),
  recipeScale: z.number().nullable().default(1),
  recipeNote: z.string().nullable().default(null),
});
export type ItemRecipeRef = z.infer<typeof ItemRecipeRef>;

export const ShoppingItemRecord = z.object({
  id: z.string(),
  position: z.number().int().default(0),
  checked: z.boolean().default(false),
  quantity: z.number().default(1),
  note: z.string().default(""),
  foodId: z.string().nullable().default(null),
  unitId: z.string().nullable().default(null),
  labelId: z.string().nullable().default(null),
  extras: z.record(z.string(), z.unknown()).default({}),
  recipeReferences: z.array(ItemRecipeRef).default([]),
  createdAt: ts,
  updatedAt: ts,
});
export type ShoppingItemRecord = z.infer<typeof ShoppingItemRecord>;

export const ListRecipeRef = z.object({
  id: z.string(),
  recipeId: z.string(),
  recipeQuantity: z.number().default(0),
});
export type ListRecipeRef = z.infer<typeof ListRecipeRef>;
export const LabelSettingRecord = z.object({
  id: z.string(),
  labelId: z.string(),
  position: z.number().int().default(0),
});
export type LabelSettingRecord = z.infer<typeof LabelSettingRecord>;

/** One shopping list, one file: `shopping-lists/<id>.json`. */
export const ShoppingListDoc = z.object({
  id: z.string(),
  name: z.string().nullable().default(null),
  userId: z.string(),
  extras: z.record(z.string(), z.unknown()).default({}),
  createdAt: ts,
  updatedAt: ts,
  labelSettings: z.array(LabelSettingRecord).default([]),
  recipeReferences: z.array(ListRecipeRef).default([]),
  items: z.array(ShoppingItemRecord).default([]),
});
export type ShoppingListDoc = z.infer<typeof ShoppingListDoc>;
