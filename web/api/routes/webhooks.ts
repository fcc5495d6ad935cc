/** /api/households/webhooks (mealie-api-notes §4.5, §9): the household's scheduled meal-plan webhooks. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";

const BASE = "/api/households/webhooks";

export const webhookRoutes = [
  route("GET", BASE, "user", (ctx) => listed(ctx, BASE, (q) => ctx.larder.webhooks.list(ctx.actor, q))),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.webhooks.create(ctx.actor, await ctx.json())),
  ),
  route("POST", `${BASE}/rerun`, "user", async (ctx) => {
    await ctx.larder.webhooks.rerun(ctx.actor);
    return Reply.json(200, null);
  }),
  route("GET", `${BASE}/:id`, "user", (ctx) => ctx.larder.webhooks.get(ctx.actor, ctx.params.id)),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    ctx.larder.webhooks.update(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) => ctx.larder.webhooks.remove(ctx.actor, ctx.params.id)),
  route("POST", `${BASE}/:id/test`, "user", async (ctx) => {
    await ctx.larder.webhooks.test(ctx.actor, ctx.params.id);
    return Reply.json(200, null);
  }),
];
