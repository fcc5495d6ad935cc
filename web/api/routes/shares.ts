/** Share links (mealie-api-notes §4.10) and their public reads (`/recipes/shared/{token}`, `/zip`). */
import { z } from "zod";
import { lazySchema } from "../../../core/util/lazy-schema.js";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { fileReply } from "./exports.js";

const CreateShare = lazySchema(() =>
  z.looseObject({ recipeId: z.unknown().optional(), expiresAt: z.unknown().optional() }),
);

export const shareRoutes = [
  route("GET", "/api/shared/recipes", "user", (ctx) =>
    ctx.larder.shares.list(ctx.actor, ctx.query.get("recipe_id") ?? ctx.query.get("recipeId")),
  ),
  route("POST", "/api/shared/recipes", "user", async (ctx) => {
    const body = CreateShare.parse((await ctx.json()) ?? {});
    return Reply.created(await ctx.larder.shares.create(ctx.actor, body));
  }),
  route("GET", "/api/shared/recipes/:id", "user", (ctx) => ctx.larder.shares.get(ctx.actor, ctx.params.id)),
  route("DELETE", "/api/shared/recipes/:id", "user", (ctx) =>
    ctx.larder.shares.remove(ctx.actor, ctx.params.id),
  ),
  route("GET", "/api/recipes/shared/:token", "public", (ctx) =>
    ctx.larder.shares.publicRecipe(ctx.params.token),
  ),
  route("GET", "/api/recipes/shared/:token/zip", "public", async (ctx) => {
    const entry = await ctx.larder.shares.resolvePublic(ctx.params.token);
    return fileReply(await ctx.larder.exports.zipOf(entry));
  }),
];
