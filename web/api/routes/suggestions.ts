/** GET /api/recipes/suggestions (mealie-api-notes §0.1); the explore variant lives in explore.ts. */
import { route } from "../router.js";
import { parseSuggestionQuery, queryRecord } from "../list-query.js";

export const suggestionRoutes = [
  route("GET", "/api/recipes/suggestions", "user", (ctx) =>
    ctx.larder.suggestions.forUser(ctx.actor, parseSuggestionQuery(queryRecord(ctx.query))),
  ),
];
