/** The household week through core directly, acting as the folder's super user (as `larder user` does). */
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";
import { localActor } from "../users/local.js";
import type { RecipeIngredientLike, ShoppingItemOut, WeekBackend } from "./types.js";

export class LocalWeek implements WeekBackend {
  readonly mode = "local" as const;
  private readonly actor: Actor;

  constructor(private readonly larder: Larder) {
    this.actor = localActor(larder);
  }

  async firstDayOfWeek(): Promise<number> {
    return this.larder.membership.household(this.actor).preferences.firstDayOfWeek ?? 0;
  }
  async entriesBetween(start: string, end: string) {
    return this.larder.mealplans.between(this.actor, start, end);
  }
  async addEntry(body: { date: string; entryType?: string; recipeId?: string; title?: string }) {
    return this.larder.mealplans.create(this.actor, body);
  }
  async randomEntry(body: { date: string; entryType?: string }) {
    return this.larder.mealplans.random(this.actor, body);
  }
  async recipe(slug: string) {
    const r = this.larder.recipes.get(this.actor, slug);
    return {
      id: r.id,
      name: r.name,
      recipeIngredient: r.recipeIngredient as unknown as RecipeIngredientLike[],
    };
  }
  async lists() {
    return (await this.larder.shopping.listLists(this.actor, { perPage: -1 })).items;
  }
  async createList(name: string) {
    return this.larder.shopping.createList(this.actor, { name });
  }
  async list(id: string) {
    return this.larder.shopping.getList(this.actor, id);
  }
  async addRecipe(
    listId: string,
    recipeId: string,
    body: { recipeIncrementQuantity: number; recipeIngredients?: RecipeIngredientLike[] },
  ) {
    return this.larder.shopping.addRecipe(this.actor, listId, recipeId, body);
  }
  async updateItem(item: ShoppingItemOut): Promise<void> {
    await this.larder.shopping.updateItem(this.actor, item.id, item);
  }
}
