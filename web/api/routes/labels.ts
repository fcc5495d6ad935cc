/** /api/groups/labels (mealie-api-notes §4.4): a crud route; create answers 200, not 201. */
import { route } from "../router.js";
import { crudHeaders } from "./crud-headers.js";
import { listed } from "../listed.js";

const BASE = "/api/groups/labels";

export const labelRoutes = [
  route("GET", BASE, "user", (ctx) =>
    crudHeaders(
      ctx,
      listed(ctx, BASE, (q) => ctx.larder.labels.list(ctx.actor, q)),
    ),
  ),
  route("POST", BASE, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.labels.create(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) =>
    crudHeaders(ctx, ctx.larder.labels.get(ctx.actor, ctx.params.id)),
  ),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.labels.update(ctx.actor, ctx.params.id, await ctx.json())),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.labels.remove(ctx.actor, ctx.params.id)),
  ),
];
