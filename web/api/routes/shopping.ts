/** /api/households/shopping (mealie-api-notes §4.5, §8): lists and items, household-scoped. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";

const LISTS = "/api/households/shopping/lists";
const ITEMS = "/api/households/shopping/items";

/** A POST body that may be absent (the add/remove recipe routes take an optional one). */
async function optionalJson(ctx: {
  req: { headers: Record<string, unknown> };
  json(): Promise<unknown>;
}): Promise<unknown> {
  const len = Number(ctx.req.headers["content-length"] ?? NaN);
  if (len === 0) return null;
  if (Number.isNaN(len) && !ctx.req.headers["transfer-encoding"]) return null;
  return ctx.json();
}

export const shoppingRoutes = [
  route("GET", LISTS, "user", (ctx) =>
    listed(ctx, LISTS, (q) => ctx.larder.shopping.listLists(ctx.actor, q)),
  ),
  route("POST", LISTS, "user", async (ctx) =>
    Reply.created(await ctx.larder.shopping.createList(ctx.actor, await ctx.json())),
  ),
  route("GET", `${LISTS}/:id`, "user", (ctx) => ctx.larder.shopping.getList(ctx.actor, ctx.params.id)),
  route("PUT", `${LISTS}/:id`, "user", async (ctx) =>
    ctx.larder.shopping.updateList(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${LISTS}/:id`, "user", (ctx) => ctx.larder.shopping.removeList(ctx.actor, ctx.params.id)),
  route("PUT", `${LISTS}/:id/label-settings`, "user", async (ctx) =>
    ctx.larder.shopping.updateLabelSettings(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("POST", `${LISTS}/:id/recipe`, "user", async (ctx) =>
    ctx.larder.shopping.addRecipesBulk(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("POST", `${LISTS}/:id/recipe/:recipeId`, "user", async (ctx) =>
    ctx.larder.shopping.addRecipe(ctx.actor, ctx.params.id, ctx.params.recipeId, await optionalJson(ctx)),
  ),
  route("POST", `${LISTS}/:id/recipe/:recipeId/delete`, "user", async (ctx) =>
    ctx.larder.shopping.removeRecipe(ctx.actor, ctx.params.id, ctx.params.recipeId, await optionalJson(ctx)),
  ),
  route("GET", ITEMS, "user", (ctx) =>
    listed(ctx, ITEMS, (q) => ctx.larder.shopping.listItems(ctx.actor, q)),
  ),
  route("POST", ITEMS, "user", async (ctx) =>
    Reply.created(await ctx.larder.shopping.createItems(ctx.actor, asSingle(await ctx.json()))),
  ),
  route("PUT", ITEMS, "user", async (ctx) => ctx.larder.shopping.updateItems(ctx.actor, await ctx.json())),
  route("DELETE", ITEMS, "user", (ctx) =>
    ctx.larder.shopping.removeItems(ctx.actor, ctx.query.getAll("ids")),
  ),
  route("POST", `${ITEMS}/create-bulk`, "user", async (ctx) =>
    Reply.created(await ctx.larder.shopping.createItems(ctx.actor, asList(await ctx.json()))),
  ),
  route("GET", `${ITEMS}/:id`, "user", (ctx) => ctx.larder.shopping.getItem(ctx.actor, ctx.params.id)),
  route("PUT", `${ITEMS}/:id`, "user", async (ctx) =>
    ctx.larder.shopping.updateItem(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${ITEMS}/:id`, "user", (ctx) =>
    ctx.larder.shopping.removeItems(ctx.actor, [ctx.params.id]),
  ),
];

/** POST /items takes one item; a list there is a 422 (create-bulk is the route for lists). */
function asSingle(body: unknown): unknown {
  if (Array.isArray(body)) return { shoppingListId: undefined };
  return body;
}
function asList(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}
