/** Household documents of this part: `cookbooks.json` and `recipe-actions.json` (ARCHITECTURE §2). */
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";

const ts = lazySchema(() => z.string().nullable().default(null));

export const CookbookRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().default(""),
    slug: z.string(),
    position: z.number().int().default(1),
    public: z.boolean().default(false),
    /** The filter as written; its parsed `{parts}` form is derived on output, never stored twice. */
    queryFilterString: z.string().default(""),
    createdAt: ts,
    updatedAt: ts,
  }),
);
export type CookbookRecord = z.infer<typeof CookbookRecord>;
export const CookbooksDoc = lazySchema(() => z.object({ cookbooks: z.array(CookbookRecord).default([]) }));
export type CookbooksDoc = z.infer<typeof CookbooksDoc>;

export const RECIPE_ACTION_TYPES = ["link", "post"] as const;
export const RecipeActionRecord = lazySchema(() =>
  z.object({
    id: z.string(),
    actionType: z.enum(RECIPE_ACTION_TYPES),
    title: z.string(),
    url: z.string(),
    createdAt: ts,
    updatedAt: ts,
  }),
);
export type RecipeActionRecord = z.infer<typeof RecipeActionRecord>;
export const RecipeActionsDoc = lazySchema(() =>
  z.object({ actions: z.array(RecipeActionRecord).default([]) }),
);
export type RecipeActionsDoc = z.infer<typeof RecipeActionsDoc>;
