/** /api/recipes/bulk-actions (mealie-api-notes §4.6): tag, categorize, settings, delete, export. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { ValidationError } from "../../../core/errors.js";

export const bulkActionRoutes = [
  route("POST", "/api/recipes/bulk-actions/tag", "user", async (ctx) => {
    await ctx.larder.bulkActions.tag(ctx.actor, await ctx.json());
    return null;
  }),
  route("POST", "/api/recipes/bulk-actions/categorize", "user", async (ctx) => {
    await ctx.larder.bulkActions.categorize(ctx.actor, await ctx.json());
    return null;
  }),
  route("POST", "/api/recipes/bulk-actions/settings", "user", async (ctx) => {
    await ctx.larder.bulkActions.settings(ctx.actor, await ctx.json());
    return null;
  }),
  route("POST", "/api/recipes/bulk-actions/delete", "user", async (ctx) => {
    await ctx.larder.bulkActions.delete(ctx.actor, await ctx.json());
    return null;
  }),
  // 202 like Mealie; the zip is complete when the answer comes, so the list shows it at once.
  route("POST", "/api/recipes/bulk-actions/export", "user", async (ctx) => {
    await ctx.larder.bulkActions.export(ctx.actor, await ctx.json());
    return Reply.json(202, null);
  }),
  route("GET", "/api/recipes/bulk-actions/export", "user", (ctx) =>
    ctx.larder.bulkActions.exports(ctx.actor),
  ),
  // v2's form (`?path=` from the list) and the contract's (`/{export_id}/download`).
  route("GET", "/api/recipes/bulk-actions/export/download", "user", (ctx) => {
    const path = ctx.query.get("path");
    if (!path)
      throw new ValidationError([{ loc: ["query", "path"], msg: "Field required", type: "missing" }]);
    return ctx.larder.bulkActions.downloadToken(ctx.actor, path);
  }),
  route("GET", "/api/recipes/bulk-actions/export/:exportId/download", "user", (ctx) =>
    ctx.larder.bulkActions.downloadToken(ctx.actor, ctx.params.exportId),
  ),
  route("DELETE", "/api/recipes/bulk-actions/export/purge", "user", (ctx) =>
    ctx.larder.bulkActions.purge(ctx.actor),
  ),
];
