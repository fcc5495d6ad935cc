/**
 * Test helper: a complete `RecipeIndexEntry` from the few fields a test cares about. Not used by
 * production code.
 */
import { derivedId } from "../util/ids.js";
import type { RecipeIndexEntry } from "./attributes.js";

type Org = { name: string; id?: string };
export interface RecipeSeed extends Partial<
  Omit<RecipeIndexEntry, "tags" | "recipeCategory" | "tools" | "foods">
> {
  name: string;
  tags?: (string | Org)[];
  recipeCategory?: (string | Org)[];
  tools?: (string | Org)[];
  foods?: (string | Org)[];
}

const GROUP = derivedId("group");
const org = (kind: string) => (o: string | Org) => {
  const name = typeof o === "string" ? o : o.name;
  const id = typeof o === "string" ? derivedId(kind, name) : (o.id ?? derivedId(kind, name));
  return { id, name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, "-"), groupId: GROUP };
};

/** Build an index entry; ids of organizers derive from their names (`tagId("dinner")`). */
export function makeRecipe(seed: RecipeSeed): RecipeIndexEntry {
  const id = seed.id ?? derivedId("recipe", seed.name);
  const userId = seed.userId ?? derivedId("user", "alice");
  const householdId = seed.householdId ?? derivedId("household", "family");
  return {
    userId,
    householdId,
    groupId: GROUP,
    slug: seed.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    image: null,
    recipeServings: 0,
    recipeYieldQuantity: 0,
    recipeYield: null,
    totalTime: null,
    prepTime: null,
    cookTime: null,
    performTime: null,
    description: null,
    rating: null,
    orgURL: null,
    dateAdded: null,
    dateUpdated: null,
    createdAt: null,
    updatedAt: null,
    lastMade: null,
    settings: {
      public: false,
      showNutrition: false,
      showAssets: false,
      landscapeView: false,
      disableComments: true,
      locked: false,
      disableAmount: false,
    },
    household: { id: householdId, preferences: { privateHousehold: false } },
    user: { id: userId, username: "alice" },
    ingredientTexts: [],
    ...seed,
    id,
    tags: (seed.tags ?? []).map(org("tag")),
    recipeCategory: (seed.recipeCategory ?? []).map(org("category")),
    tools: (seed.tools ?? []).map((t) => ({ ...org("tool")(t), householdsWithTool: [] })),
    foods: (seed.foods ?? []).map((f) => {
      const o = org("food")(f);
      return { id: o.id, name: o.name };
    }),
  };
}

export const tagId = (name: string): string => derivedId("tag", name);
export const categoryId = (name: string): string => derivedId("category", name);
export const toolId = (name: string): string => derivedId("tool", name);
export const foodId = (name: string): string => derivedId("food", name);
export const userId = (name: string): string => derivedId("user", name);
