/** /api/households/events/notifications (mealie-api-notes §4.5, §9): the household's Apprise notifiers, a "crud route". */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";
import { crudHeaders } from "./crud-headers.js";

const BASE = "/api/households/events/notifications";

export const notifierRoutes = [
  route("GET", BASE, "user", (ctx) =>
    crudHeaders(
      ctx,
      listed(ctx, BASE, (q) => ctx.larder.notifiers.list(ctx.actor, q)),
    ),
  ),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.notifiers.create(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) =>
    crudHeaders(ctx, ctx.larder.notifiers.get(ctx.actor, ctx.params.id)),
  ),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    crudHeaders(ctx, await ctx.larder.notifiers.update(ctx.actor, ctx.params.id, await ctx.json())),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) => {
    await ctx.larder.notifiers.remove(ctx.actor, ctx.params.id);
    return Reply.noContent();
  }),
  route("POST", `${BASE}/:id/test`, "user", async (ctx) => {
    await ctx.larder.notifiers.test(ctx.actor, ctx.params.id);
    return Reply.noContent();
  }),
];
