/** /api/recipes (mealie-api-notes §4.6): list, CRUD, duplicate, last-made, bulk PUT/PATCH. */
import { z } from "zod";
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { ApiContext } from "../context.js";
import { answerPageBytes, listed } from "../listed.js";
import { summaryBytes } from "../../../core/recipes/wire-bytes.js";
import { timestampInput } from "../../../core/schemas/timestamp.js";
import { parseRecipeListQuery, queryRecord } from "../list-query.js";

/** Crud routes copy `updatedAt` into Last-Modified and forbid caching (mealie-api-notes §0). */
function crud(ctx: ApiContext, body: unknown): unknown {
  ctx.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
  const updated = (body as { updatedAt?: string } | null)?.updatedAt;
  if (updated) {
    const d = new Date(updated);
    if (!Number.isNaN(d.getTime())) ctx.setHeader("Last-Modified", d.toUTCString());
  }
  return body;
}

export const recipeRoutes = [
  route("GET", "/api/recipes", "user", (ctx) => {
    ctx.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
    const query = parseRecipeListQuery(queryRecord(ctx.query));
    const page = ctx.larder.recipes.lister.listEntries(ctx.actor, query);
    return answerPageBytes(ctx, "/api/recipes", query, page, summaryBytes, { nulls: "drop" });
  }),
  route("POST", "/api/recipes", "user", async (ctx) =>
    Reply.created(await ctx.larder.recipes.create(ctx.actor, await ctx.json())),
  ),
  route("PUT", "/api/recipes", "user", async (ctx) =>
    ctx.larder.recipes.bulkUpdate(ctx.actor, await ctx.json(), "put"),
  ),
  route("PATCH", "/api/recipes", "user", async (ctx) =>
    ctx.larder.recipes.bulkUpdate(ctx.actor, await ctx.json(), "patch"),
  ),
  // Legacy spec §7 route: answer with the categories list.
  route("GET", "/api/recipes/category", "user", (ctx) =>
    listed(ctx, "/api/recipes/category", (q) =>
      ctx.larder.recipes.lister.organizers(ctx.actor, "categories", q),
    ),
  ),
  route("GET", "/api/recipes/:slug", "user", (ctx) =>
    crud(ctx, ctx.larder.recipes.get(ctx.actor, ctx.params.slug)),
  ),
  route("PUT", "/api/recipes/:slug", "user", async (ctx) =>
    crud(ctx, await ctx.larder.recipes.update(ctx.actor, ctx.params.slug, await ctx.json(), "put")),
  ),
  route("PATCH", "/api/recipes/:slug", "user", async (ctx) =>
    crud(ctx, await ctx.larder.recipes.update(ctx.actor, ctx.params.slug, await ctx.json(), "patch")),
  ),
  route("DELETE", "/api/recipes/:slug", "user", async (ctx) =>
    ctx.larder.recipes.remove(ctx.actor, ctx.params.slug),
  ),
  route("POST", "/api/recipes/:slug/duplicate", "user", async (ctx) => {
    const body = z
      .object({ name: z.string().nullish() })
      .loose()
      .parse((await ctx.json()) ?? {});
    return Reply.created(await ctx.larder.recipes.duplicate(ctx.actor, ctx.params.slug, body.name));
  }),
  route("PATCH", "/api/recipes/:slug/last-made", "user", async (ctx) => {
    const body = z
      .object({ timestamp: timestampInput })
      .loose()
      .parse((await ctx.json()) ?? {});
    return ctx.larder.recipes.setLastMade(ctx.actor, ctx.params.slug, body.timestamp ?? null);
  }),
];
