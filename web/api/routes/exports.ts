/** Recipe exports (mealie-api-notes §4.6): formats, a recipe as a file, the recipe zip behind a token. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import type { ExportFile } from "../../../core/exports/exports-service.js";
import { ValidationError } from "../../../core/errors.js";

import { attachment } from "../../server/edge.js";

// `attachment; filename="…"; filename*=UTF-8''…` from the content-disposition package (web/server/edge.ts).
export { attachment };

/** A prepared file as a download. */
export function fileReply(file: ExportFile): Reply {
  return Reply.bytes(file.data, file.contentType, {
    "Content-Disposition": attachment(file.filename),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
}

export const exportRoutes = [
  route("GET", "/api/recipes/exports", "user", (ctx) => ctx.larder.exports.formats()),
  route("POST", "/api/recipes/:slug/exports", "user", (ctx) =>
    ctx.larder.exports.recipeToken(ctx.actor, ctx.params.slug),
  ),
  route("GET", "/api/recipes/:slug/exports", "user", async (ctx) => {
    const template = ctx.query.get("template_name") ?? ctx.query.get("templateName");
    if (!template)
      throw new ValidationError([
        { loc: ["query", "template_name"], msg: "Field required", type: "missing" },
      ]);
    return fileReply(await ctx.larder.exports.recipeAsFormat(ctx.actor, ctx.params.slug, template));
  }),
  // The token is the credential (the zip opens in a new window); a signed-in caller is checked too.
  route("GET", "/api/recipes/:slug/exports/zip", "optional", async (ctx) => {
    const token = ctx.query.get("token");
    if (!token)
      throw new ValidationError([{ loc: ["query", "token"], msg: "Field required", type: "missing" }]);
    return fileReply(await ctx.larder.exports.recipeZipByToken(ctx.actor, ctx.params.slug, token));
  }),
];
