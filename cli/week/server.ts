/** The household week through a live server's Mealie API (the lock token acts as the super user). */
import type { LiveServer } from "../context.js";
import { ServerClient } from "../users/server-client.js";
import type {
  PlanEntryOut,
  RecipeIngredientLike,
  ShoppingItemOut,
  ShoppingListOut,
  ShoppingListSummaryOut,
  WeekBackend,
} from "./types.js";

export class ServerWeek implements WeekBackend {
  readonly mode = "server" as const;
  private readonly client: ServerClient;

  constructor(lock: LiveServer, dataDir: string) {
    this.client = new ServerClient(lock, dataDir);
  }

  async firstDayOfWeek(): Promise<number> {
    return (
      (await this.client.request<{ firstDayOfWeek?: number }>("GET", "/api/households/preferences"))
        .firstDayOfWeek ?? 0
    );
  }
  async entriesBetween(start: string, end: string): Promise<PlanEntryOut[]> {
    const page = await this.client.request<{ items: PlanEntryOut[] }>(
      "GET",
      `/api/households/mealplans?start_date=${start}&end_date=${end}&perPage=-1&orderBy=date&orderDirection=asc`,
    );
    return page.items;
  }
  addEntry(body: {
    date: string;
    entryType?: string;
    recipeId?: string;
    title?: string;
  }): Promise<PlanEntryOut> {
    return this.client.request("POST", "/api/households/mealplans", body);
  }
  randomEntry(body: { date: string; entryType?: string }): Promise<PlanEntryOut> {
    return this.client.request("POST", "/api/households/mealplans/random", body);
  }
  recipe(slug: string): Promise<{ id: string; name: string; recipeIngredient: RecipeIngredientLike[] }> {
    return this.client.request("GET", `/api/recipes/${encodeURIComponent(slug)}`);
  }
  async lists(): Promise<ShoppingListSummaryOut[]> {
    return (
      await this.client.request<{ items: ShoppingListSummaryOut[] }>(
        "GET",
        "/api/households/shopping/lists?perPage=-1",
      )
    ).items;
  }
  createList(name: string): Promise<ShoppingListOut> {
    return this.client.request("POST", "/api/households/shopping/lists", { name });
  }
  list(id: string): Promise<ShoppingListOut> {
    return this.client.request("GET", `/api/households/shopping/lists/${id}`);
  }
  addRecipe(
    listId: string,
    recipeId: string,
    body: { recipeIncrementQuantity: number; recipeIngredients?: RecipeIngredientLike[] },
  ): Promise<ShoppingListOut> {
    return this.client.request("POST", `/api/households/shopping/lists/${listId}/recipe/${recipeId}`, body);
  }
  async updateItem(item: ShoppingItemOut): Promise<void> {
    await this.client.request("PUT", `/api/households/shopping/items/${item.id}`, item);
  }
}
