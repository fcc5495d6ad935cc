/** /api/comments and /api/recipes/{slug}/comments (mealie-api-notes §4.9). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";

export const commentRoutes = [
  route("GET", "/api/comments", "user", (ctx) =>
    listed(ctx, "/api/comments", (q) => ctx.larder.comments.list(ctx.actor, q)),
  ),
  route("POST", "/api/comments", "user", async (ctx) =>
    Reply.created(await ctx.larder.comments.create(ctx.actor, await ctx.json())),
  ),
  route("GET", "/api/comments/:id", "user", (ctx) => ctx.larder.comments.get(ctx.actor, ctx.params.id)),
  route("PUT", "/api/comments/:id", "user", async (ctx) =>
    ctx.larder.comments.update(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", "/api/comments/:id", "user", (ctx) => ctx.larder.comments.remove(ctx.actor, ctx.params.id)),
  route("GET", "/api/recipes/:slug/comments", "user", (ctx) =>
    ctx.larder.comments.ofRecipe(ctx.actor, ctx.params.slug),
  ),
];
