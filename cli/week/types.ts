/** What `larder plan` and `larder list` need, whichever way they reach the folder. Wire shapes throughout. */
import type { PlanEntryOut } from "../../core/mealplans/mealplans-service.js";
import type {
  ShoppingItemOut,
  ShoppingListOut,
  ShoppingListSummaryOut,
} from "../../core/shopping/shopping-service.js";

export type { PlanEntryOut, ShoppingItemOut, ShoppingListOut, ShoppingListSummaryOut };

export interface RecipeIngredientLike {
  food?: { onHand?: boolean } | null;
  [key: string]: unknown;
}

/** The calls, in wire shapes; answered in calls.ts. */
export interface WeekCalls {
  /** The household's first day of the week (0 = Sunday). */
  firstDayOfWeek(): Promise<number>;
  entriesBetween(start: string, end: string): Promise<PlanEntryOut[]>;
  addEntry(body: {
    date: string;
    entryType?: string;
    recipeId?: string;
    title?: string;
  }): Promise<PlanEntryOut>;
  randomEntry(body: { date: string; entryType?: string }): Promise<PlanEntryOut>;
  /** A recipe of the group by slug: its id and ingredients (food.onHand says the household has it). */
  recipe(slug: string): Promise<{ id: string; name: string; recipeIngredient: RecipeIngredientLike[] }>;
  lists(): Promise<ShoppingListSummaryOut[]>;
  createList(name: string): Promise<ShoppingListOut>;
  list(id: string): Promise<ShoppingListOut>;
  addRecipe(
    listId: string,
    recipeId: string,
    body: { recipeIncrementQuantity: number; recipeIngredients?: RecipeIngredientLike[] },
  ): Promise<ShoppingListOut>;
  /** Several recipes in one call (Mealie's bulk add): every one is added, or none is. */
  addRecipes(
    listId: string,
    entries: {
      recipeId: string;
      recipeIncrementQuantity: number;
      recipeIngredients?: RecipeIngredientLike[];
    }[],
  ): Promise<ShoppingListOut>;
  updateItem(item: ShoppingItemOut): Promise<void>;
}
