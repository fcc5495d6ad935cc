/**
 * The calls `larder plan` and `larder list` make, in Mealie's wire shapes: answered by core in this
 * process, acting as the folder's super user (as `larder user` does), or by the running server's API,
 * whose lock token acts as the same account (cli/calls.ts).
 */
import type { CallsSource } from "../calls.js";
import { localActor } from "../users/local.js";
import { ServerClient } from "../users/server-client.js";
import { recipeNamed } from "../output.js";
import type {
  PlanEntryOut,
  RecipeIngredientLike,
  ShoppingItemOut,
  ShoppingListOut,
  ShoppingListSummaryOut,
  WeekCalls,
} from "./types.js";

export const weekCalls: CallsSource<WeekCalls> = {
  local(larder) {
    const actor = localActor(larder);
    return {
      firstDayOfWeek: async () => larder.membership.household(actor).preferences.firstDayOfWeek ?? 0,
      entriesBetween: async (start, end) => larder.mealplans.between(actor, start, end),
      addEntry: (body) => larder.mealplans.create(actor, body),
      randomEntry: (body) => larder.mealplans.random(actor, body),
      async recipe(slug) {
        const r = await recipeNamed(slug, () => larder.recipes.get(actor, slug));
        return {
          id: r.id,
          name: r.name,
          recipeIngredient: r.recipeIngredient as unknown as RecipeIngredientLike[],
        };
      },
      lists: async () => (await larder.shopping.listLists(actor, { perPage: -1 })).items,
      createList: (name) => larder.shopping.createList(actor, { name }),
      list: (id) => larder.shopping.getList(actor, id),
      addRecipe: (listId, recipeId, body) => larder.shopping.addRecipe(actor, listId, recipeId, body),
      addRecipes: (listId, entries) => larder.shopping.addRecipesBulk(actor, listId, entries),
      async updateItem(item) {
        await larder.shopping.updateItem(actor, item.id, item);
      },
    };
  },
  server(lock, dataDir) {
    const client = new ServerClient(lock, dataDir);
    return {
      firstDayOfWeek: async () =>
        (await client.request<{ firstDayOfWeek?: number }>("GET", "/api/households/preferences"))
          .firstDayOfWeek ?? 0,
      entriesBetween: async (start, end) =>
        (
          await client.request<{ items: PlanEntryOut[] }>(
            "GET",
            `/api/households/mealplans?start_date=${start}&end_date=${end}&perPage=-1&orderBy=date&orderDirection=asc`,
          )
        ).items,
      addEntry: (body) => client.request<PlanEntryOut>("POST", "/api/households/mealplans", body),
      randomEntry: (body) => client.request<PlanEntryOut>("POST", "/api/households/mealplans/random", body),
      recipe: (slug) =>
        recipeNamed(slug, () => client.request("GET", `/api/recipes/${encodeURIComponent(slug)}`)),
      lists: async () =>
        (
          await client.request<{ items: ShoppingListSummaryOut[] }>(
            "GET",
            "/api/households/shopping/lists?perPage=-1",
          )
        ).items,
      createList: (name) =>
        client.request<ShoppingListOut>("POST", "/api/households/shopping/lists", { name }),
      list: (id) => client.request<ShoppingListOut>("GET", `/api/households/shopping/lists/${id}`),
      addRecipe: (listId, recipeId, body) =>
        client.request<ShoppingListOut>(
          "POST",
          `/api/households/shopping/lists/${listId}/recipe/${recipeId}`,
          body,
        ),
      addRecipes: (listId, entries) =>
        client.request<ShoppingListOut>("POST", `/api/households/shopping/lists/${listId}/recipe`, entries),
      async updateItem(item: ShoppingItemOut) {
        await client.request("PUT", `/api/households/shopping/items/${item.id}`, item);
      },
    };
  },
};
