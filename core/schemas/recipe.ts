/**
 * The recipe's wire shapes (contract: Recipe-Output, RecipeSummary, RecipeIngredient-Output, ...).
 * Output types are what presenters produce; every declared property is always present.
 */
import { z } from "zod";
import { COPIED_FIELDS, type CopiedWireFields } from "../recipes/fields.js";
import type { Wire } from "../wire/index.js";
import { withThousands } from "../util/digits.js";
import { timestampInput } from "./timestamp.js";
import {
  NUTRITION_KEYS,
  RECIPE_SETTING_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type NutritionKey,
  type RecipeSettings,
} from "./recipe-defaults.js";

export { NUTRITION_KEYS, RECIPE_SETTING_KEYS, RECIPE_SETTINGS_DEFAULTS };
export type { NutritionKey, RecipeSettings };
export type Nutrition = Record<NutritionKey, string | null>;

export interface RecipeNote {
  title: string;
  text: string;
}
export interface RecipeAsset {
  name: string;
  icon: string;
  fileName: string | null;
}
export interface RecipeOrganizerRef {
  id: string;
  groupId: string;
  name: string;
  slug: string;
}
export interface RecipeToolRef extends RecipeOrganizerRef {
  householdsWithTool: string[];
}
export interface LabelSummary {
  id: string;
  groupId: string;
  name: string;
  color: string;
}
export interface IngredientFood {
  id: string;
  name: string;
  pluralName: string | null;
  description: string;
  extras: Record<string, string>;
  labelId: string | null;
  aliases: { name: string }[];
  householdsWithIngredientFood: string[];
  label: LabelSummary | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** v2 field, still sent: true when the caller's household has it on hand. */
  onHand: boolean;
  groupId: string;
}
export interface IngredientUnit {
  id: string;
  name: string;
  pluralName: string | null;
  description: string;
  extras: Record<string, string>;
  fraction: boolean;
  abbreviation: string;
  pluralAbbreviation: string | null;
  useAbbreviation: boolean;
  aliases: { name: string }[];
  standardQuantity: number | null;
  standardUnit: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  groupId: string;
}
export interface RecipeIngredient {
  quantity: number | null;
  unit: IngredientUnit | null;
  food: IngredientFood | null;
  /** A sub-recipe: the whole Recipe, as Mealie sends it, or its summary where the reader may not see it whole. */
  referencedRecipe: RecipeSummary | null;
  note: string | null;
  display: string;
  title: string | null;
  originalText: string | null;
  referenceId: string;
  isFood: boolean;
  disableAmount: boolean;
}
export interface RecipeStep {
  id: string;
  title: string | null;
  summary: string | null;
  text: string;
  ingredientReferences: { referenceId: string }[];
}
/**
 * The list item. The fields copied from the file unchanged (name, servings, yield, times, orgURL, image,
 * dateUpdated, lastMade) come from their declaration in core/recipes/fields.ts; the rest are derived
 * (ids, slug, organizers, rating, timestamps) or come from the body (description).
 */
export interface RecipeSummary extends CopiedWireFields {
  id: string;
  userId: string;
  householdId: string;
  groupId: string;
  slug: string;
  description: string | null;
  recipeCategory: RecipeOrganizerRef[];
  tags: RecipeOrganizerRef[];
  tools: RecipeToolRef[];
  rating: number | null;
  /** The date part of the file's timestamp. */
  dateAdded: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}
// What Larder sends must be what the contract describes (core/wire, generated from Mealie's OpenAPI).
const _summaryFitsTheContract = (s: RecipeSummary): Wire<"RecipeSummary"> => s;
export interface Recipe extends RecipeSummary {
  recipeIngredient: RecipeIngredient[];
  recipeInstructions: RecipeStep[];
  nutrition: Nutrition;
  settings: RecipeSettings;
  assets: RecipeAsset[];
  notes: RecipeNote[];
  extras: Record<string, string>;
  comments: unknown[];
}

// ---- input schemas (requests). Keys are camelised before parsing (core/util/case.ts). ----

const str = z.union([z.string(), z.number()]).transform((v) => String(v));
const optStr = str.nullish();
/**
 * Text of a size no recipe needs, refused with a 422 rather than stored: every page view of a recipe
 * renders all of it, and a recipe of 60,000 ingredient lines held the server for 50 s per view.
 */
const textUpTo = (max: number) =>
  str.pipe(z.string().max(max, `Must be at most ${withThousands(max)} characters`)).nullish();
const listUpTo = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .array(item)
    .max(max, `A recipe holds at most ${withThousands(max)} ${what}`)
    .nullish();
/** Mealie sets no limits; these are far beyond any recipe, and a file edited by hand is never refused. */
export const RECIPE_LIMITS = {
  ingredients: 2000,
  steps: 1000,
  notes: 500,
  organizers: 500,
  text: 100_000,
  markup: 20_000,
};
const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^\s*-?\d+(\.\d+)?\s*$/)
    .transform(Number),
]);

export const OrganizerInput = z.union([
  z.string().transform((name) => ({ id: null as string | null, name, slug: null as string | null })),
  z.object({ id: z.string().nullish(), name: z.string().nullish(), slug: z.string().nullish() }).loose(),
]);
export const IngredientRefInput = z
  .object({ id: z.string().nullish(), name: z.string().nullish() })
  .loose()
  .nullish();

export const RecipeIngredientInput = z.union([
  z.string().transform((note) => ({ note }) as Record<string, unknown>),
  z
    .object({
      quantity: z.union([num, z.literal("").transform(() => null)]).nullish(),
      unit: z.union([z.string().transform((name) => ({ name })), IngredientRefInput]).nullish(),
      food: z.union([z.string().transform((name) => ({ name })), IngredientRefInput]).nullish(),
      referencedRecipe: z.object({ id: z.string().nullish(), slug: z.string().nullish() }).loose().nullish(),
      note: textUpTo(RECIPE_LIMITS.text),
      title: optStr,
      originalText: textUpTo(RECIPE_LIMITS.text),
      referenceId: z.string().nullish(),
    })
    .loose(),
]);
export const RecipeStepInput = z.union([
  z.string().transform((text) => ({ text }) as Record<string, unknown>),
  z
    .object({
      id: z.string().nullish(),
      title: optStr,
      summary: textUpTo(RECIPE_LIMITS.text),
      text: textUpTo(RECIPE_LIMITS.text),
      name: optStr,
      ingredientReferences: z.array(z.object({ referenceId: z.string().nullish() }).loose()).nullish(),
    })
    .loose(),
]);

// Numbers in Mealie's schema, never null: null is a 422 there and here.
const optNum = num.optional();
/** The plain fields (core/recipes/fields.ts): counts are numbers, the rest text. */
const plainInput = Object.fromEntries(
  COPIED_FIELDS.map((f) => [f.wire, f.kind === "count" ? optNum : optStr]),
) as { [K in keyof CopiedWireFields]: CopiedWireFields[K] extends number ? typeof optNum : typeof optStr };

/** Fields a client may send to create, replace (PUT) or patch a recipe. All optional; unknown keys ignored. */
export const RecipeInput = z
  .object({
    ...plainInput,
    lastMade: timestampInput,
    id: z.string().nullish(),
    description: textUpTo(RECIPE_LIMITS.text),
    // Clients send a key, a URL or an object; only a key (text) is kept (core/recipes/wire.ts).
    image: z.unknown().optional(),
    recipeCategory: listUpTo(OrganizerInput, RECIPE_LIMITS.organizers, "categories"),
    tags: listUpTo(OrganizerInput, RECIPE_LIMITS.organizers, "tags"),
    tools: listUpTo(OrganizerInput, RECIPE_LIMITS.organizers, "tools"),
    dateAdded: timestampInput,
    updatedAt: optStr,
    userId: z.string().nullish(),
    recipeIngredient: listUpTo(RecipeIngredientInput, RECIPE_LIMITS.ingredients, "ingredients"),
    recipeInstructions: listUpTo(RecipeStepInput, RECIPE_LIMITS.steps, "steps"),
    nutrition: z.record(z.string(), z.union([z.string(), z.number()]).nullish()).nullish(),
    settings: z.record(z.string(), z.unknown()).nullish(),
    assets: z
      .array(z.object({ name: z.string(), icon: z.string(), fileName: z.string().nullish() }).loose())
      .nullish(),
    notes: listUpTo(
      z.object({ title: optStr, text: textUpTo(RECIPE_LIMITS.text) }).loose(),
      RECIPE_LIMITS.notes,
      "notes",
    ),
    extras: z.record(z.string(), z.unknown()).nullish(),
  })
  .loose()
  .superRefine((r, ctx) => {
    // Each text is rendered as Markdown on every view, in time that grows faster than its delimiters:
    // many fields each under their own limit were still a recipe that held the server per view.
    let n = 0;
    const count = (t: string | null | undefined) => {
      if (!t) return;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c === 42 || c === 95 || c === 96 || c === 60 || c === 91 || c === 93 || c === 126) n++;
      }
    };
    count(r.description);
    for (const s of r.recipeInstructions ?? []) count(s.text as string | null | undefined);
    for (const x of r.notes ?? []) count(x.text);
    for (const i of r.recipeIngredient ?? []) count(i.note as string | null | undefined);
    if (n > RECIPE_LIMITS.markup)
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `A recipe's texts hold at most ${withThousands(RECIPE_LIMITS.markup)} Markdown marks (* _ \` < [ ] ~); this one has ${withThousands(n)}`,
      });
  });
export type RecipeInput = z.infer<typeof RecipeInput>;
