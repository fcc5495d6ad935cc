/** /api/explore/groups/{groupSlug}/… (mealie-api-notes §4.12): public, read-only. */
import { route } from "../router.js";
import type { OrganizerKind } from "../../../core/schemas/records.js";
import type { ApiContext } from "../context.js";
import { answerPage, listed } from "../listed.js";
import { parseRecipeListQuery, parseSuggestionQuery, queryRecord } from "../list-query.js";

const BASE = "/api/explore/groups/:group";

/** The links of an explore list name the group by its slug, however the request named it. */
const path = (ctx: ApiContext, rest: string) =>
  `/api/explore/groups/${ctx.larder.explore.slugOf(ctx.params.group)}/${rest}`;

const organizerRoutes = (kind: OrganizerKind) => [
  route("GET", `${BASE}/organizers/${kind}`, "public", (ctx) =>
    listed(ctx, path(ctx, `organizers/${kind}`), (q) =>
      ctx.larder.explore.organizers(ctx.params.group, kind, q),
    ),
  ),
  route("GET", `${BASE}/organizers/${kind}/:id`, "public", (ctx) =>
    ctx.larder.explore.organizer(ctx.params.group, kind, ctx.params.id),
  ),
];

export const exploreRoutes = [
  route("GET", `${BASE}/recipes`, "public", (ctx) => {
    const route = path(ctx, "recipes");
    const query = parseRecipeListQuery(queryRecord(ctx.query));
    return answerPage(ctx, route, query, ctx.larder.explore.recipes(ctx.params.group, query), {
      nulls: "drop",
    });
  }),
  route("GET", `${BASE}/recipes/suggestions`, "public", (ctx) =>
    ctx.larder.explore.suggestions(ctx.params.group, parseSuggestionQuery(queryRecord(ctx.query))),
  ),
  route("GET", `${BASE}/recipes/:slug`, "public", (ctx) =>
    ctx.larder.explore.recipe(ctx.params.group, ctx.params.slug),
  ),
  route("GET", `${BASE}/foods`, "public", (ctx) =>
    listed(ctx, path(ctx, "foods"), (q) => ctx.larder.explore.foods(ctx.params.group, q)),
  ),
  route("GET", `${BASE}/foods/:id`, "public", (ctx) =>
    ctx.larder.explore.food(ctx.params.group, ctx.params.id),
  ),
  route("GET", `${BASE}/households`, "public", (ctx) =>
    listed(ctx, path(ctx, "households"), (q) => ctx.larder.explore.households(ctx.params.group, q)),
  ),
  route("GET", `${BASE}/households/:slug`, "public", (ctx) =>
    ctx.larder.explore.household(ctx.params.group, ctx.params.slug),
  ),
  route("GET", `${BASE}/cookbooks`, "public", (ctx) =>
    listed(ctx, path(ctx, "cookbooks"), (q) => ctx.larder.explore.cookbooks(ctx.params.group, q)),
  ),
  route("GET", `${BASE}/cookbooks/:id`, "public", (ctx) =>
    ctx.larder.explore.cookbook(ctx.params.group, ctx.params.id),
  ),
  ...organizerRoutes("categories"),
  ...organizerRoutes("tags"),
  ...organizerRoutes("tools"),
];
