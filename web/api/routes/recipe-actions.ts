/** /api/households/recipe-actions (mealie-api-notes §4.5): household-scoped, with the `post` trigger. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";

const BASE = "/api/households/recipe-actions";

export const recipeActionRoutes = [
  route("GET", BASE, "user", (ctx) => listed(ctx, BASE, (q) => ctx.larder.recipeActions.list(ctx.actor, q))),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.recipeActions.create(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) => ctx.larder.recipeActions.get(ctx.actor, ctx.params.id)),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    ctx.larder.recipeActions.update(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) =>
    ctx.larder.recipeActions.remove(ctx.actor, ctx.params.id),
  ),
  route("POST", `${BASE}/:id/trigger/:slug`, "user", async (ctx) => {
    // Accepted now, delivered in the background (the delivery logs its own failures).
    ctx.larder.recipeActions.trigger(ctx.actor, ctx.params.id, ctx.params.slug, await ctx.json());
    return Reply.json(202, null);
  }),
];
