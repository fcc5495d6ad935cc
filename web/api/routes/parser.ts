/** /api/parser (mealie-api-notes §4.11, §13): ingredient parsing, for any signed-in member. */
import { route } from "../router.js";

export const parserRoutes = [
  route("POST", "/api/parser/ingredient", "user", async (ctx) => ctx.larder.parsers.parseOne(ctx.actor, await ctx.json())),
  route("POST", "/api/parser/ingredients", "user", async (ctx) => ctx.larder.parsers.parseMany(ctx.actor, await ctx.json())),
];
