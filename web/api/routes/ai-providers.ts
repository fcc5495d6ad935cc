/**
 * AI providers (Mealie v3.19): the caller's group under /api/groups/ai-providers, any group for an
 * admin under /api/admin/groups/{group_id}/ai-providers. Keys go in and never come out.
 */
import { route } from "../router.js";

const SELF = "/api/groups/ai-providers";
const ADMIN = "/api/admin/groups/:groupId/ai-providers";

export const aiProviderRoutes = [
  route("GET", `${SELF}/settings`, "user", (ctx) => ctx.larder.aiProviders.settings(ctx.actor)),
  route("PUT", `${SELF}/settings`, "user", async (ctx) =>
    ctx.larder.aiProviders.updateSettings(ctx.actor, await ctx.json()),
  ),
  route("POST", `${SELF}/providers`, "user", async (ctx) =>
    ctx.larder.aiProviders.create(ctx.actor, await ctx.json()),
  ),
  route("GET", `${SELF}/providers/:providerId`, "user", (ctx) =>
    ctx.larder.aiProviders.get(ctx.actor, ctx.params.providerId),
  ),
  route("PUT", `${SELF}/providers/:providerId`, "user", async (ctx) =>
    ctx.larder.aiProviders.update(ctx.actor, ctx.params.providerId, await ctx.json()),
  ),
  route("DELETE", `${SELF}/providers/:providerId`, "user", (ctx) =>
    ctx.larder.aiProviders.remove(ctx.actor, ctx.params.providerId),
  ),
  route("POST", `${ADMIN}/providers`, "admin", async (ctx) =>
    ctx.larder.aiProviders.create(ctx.actor, await ctx.json(), ctx.params.groupId),
  ),
  route("GET", `${ADMIN}/providers/:providerId`, "admin", (ctx) =>
    ctx.larder.aiProviders.get(ctx.actor, ctx.params.providerId, ctx.params.groupId),
  ),
  route("PUT", `${ADMIN}/providers/:providerId`, "admin", async (ctx) =>
    ctx.larder.aiProviders.update(ctx.actor, ctx.params.providerId, await ctx.json(), ctx.params.groupId),
  ),
  route("DELETE", `${ADMIN}/providers/:providerId`, "admin", (ctx) =>
    ctx.larder.aiProviders.remove(ctx.actor, ctx.params.providerId, ctx.params.groupId),
  ),
];
