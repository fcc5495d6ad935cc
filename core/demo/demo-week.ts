/**
 * The demo's week: a freshly copied demo folder gets meals planned around the day it is first served,
 * a shopping list made from three of them and two cookbooks, so a visitor sees the planner, the list
 * and the cookbooks in use rather than empty (the tracked `data/` cannot hold dates that stay current).
 * Made through the services as a person would make them, so every file is one Larder writes itself.
 */
import type { Actor } from "../actor.js";
import type { Parts } from "../parts.js";
import { addDays, todayUtc } from "../mealplans/dates.js";

type Deps = Pick<Parts, "recipes" | "mealplans" | "shopping" | "cookbooks">;

/** Day offsets from today, the meal, and the recipe (by slug) or a title. */
const PLAN: readonly { day: number; entryType: string; slug?: string; title?: string; text?: string }[] = [
  { day: -1, entryType: "dinner", slug: "chana-masala" },
  { day: 0, entryType: "breakfast", slug: "buttermilk-pancakes" },
  { day: 0, entryType: "dinner", slug: "black-bean-tacos" },
  { day: 0, entryType: "side", slug: "roasted-tomato-salsa" },
  { day: 1, entryType: "dinner", slug: "miso-glazed-salmon" },
  { day: 1, entryType: "side", slug: "garlic-bok-choy" },
  { day: 2, entryType: "dinner", slug: "mushroom-risotto" },
  { day: 3, entryType: "lunch", title: "Leftovers", text: "Whatever is left of the risotto." },
  { day: 3, entryType: "dinner", slug: "thai-green-curry-with-chicken" },
  { day: 4, entryType: "dinner", slug: "margherita-pizza" },
];

/** The recipes whose ingredients go on the demo's shopping list. */
const ON_THE_LIST = ["black-bean-tacos", "miso-glazed-salmon", "mushroom-risotto"];

const COOKBOOKS = [
  {
    name: "Weeknight dinners",
    description: "Quick enough for a Tuesday.",
    queryFilterString: 'tags.name IN ["Weeknight"]',
  },
  { name: "Something sweet", description: "", queryFilterString: 'recipe_category.name IN ["Desserts"]' },
];

/**
 * Plan the demo's week, fill its list and make its cookbooks, as `actor` (the demo admin). Recipes the
 * folder no longer has are left out. Returns false, doing nothing, when the household already plans
 * meals or keeps lists: someone's own demo data is never added to.
 */
export async function seedDemoWeek(larder: Deps, actor: Actor, now = new Date()): Promise<boolean> {
  const planned = larder.mealplans.list(actor, { page: 1, perPage: 1 });
  const lists = await larder.shopping.listLists(actor, { page: 1, perPage: 1 });
  if (planned.total > 0 || lists.total > 0) return false;
  const idOf = (slug: string): string | null => {
    try {
      return larder.recipes.get(actor, slug).id;
    } catch {
      return null;
    }
  };
  // The planner's and the API's today (UTC; web/app/lib/mealplan.server.ts).
  const today = todayUtc(now);
  for (const p of PLAN) {
    const recipeId = p.slug ? idOf(p.slug) : null;
    if (p.slug && !recipeId) continue;
    await larder.mealplans.create(actor, {
      date: addDays(today, p.day),
      entryType: p.entryType,
      ...(recipeId ? { recipeId } : { title: p.title, text: p.text ?? "" }),
    });
  }
  const list = await larder.shopping.createList(actor, { name: "This week" });
  for (const slug of ON_THE_LIST) {
    const recipeId = idOf(slug);
    if (recipeId) await larder.shopping.addRecipe(actor, list.id, recipeId, {});
  }
  for (const [i, c] of COOKBOOKS.entries()) await larder.cookbooks.create(actor, { ...c, position: i + 1 });
  return true;
}
