/** /api/households/cookbooks (mealie-api-notes §4.5): household-scoped crud route. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { crudHeaders } from "./crud-headers.js";
import { listed } from "../listed.js";

const BASE = "/api/households/cookbooks";

export const cookbookRoutes = [
  route("GET", BASE, "user", (ctx) =>
    crudHeaders(
      ctx,
      listed(ctx, BASE, (q) => ctx.larder.cookbooks.list(ctx.actor, q)),
    ),
  ),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.cookbooks.create(ctx.actor, await ctx.json())),
  ),
  route("PUT", BASE, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.cookbooks.updateMany(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) =>
    crudHeaders(ctx, ctx.larder.cookbooks.get(ctx.actor, ctx.params.id)),
  ),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.cookbooks.update(ctx.actor, ctx.params.id, await ctx.json())),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.cookbooks.remove(ctx.actor, ctx.params.id)),
  ),
];
