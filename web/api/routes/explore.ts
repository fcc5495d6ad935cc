/** /api/explore/groups/{groupSlug}/… (mealie-api-notes §4.12): public, read-only. */
import { route } from "../router.js";
import type { OrganizerKind } from "../../../core/schemas/records.js";

const BASE = "/api/explore/groups/:group";

const organizerRoutes = (kind: OrganizerKind) => [
  route("GET", `${BASE}/organizers/${kind}`, "public", (ctx) =>
    ctx.larder.explore.organizers(ctx.params.group, kind, ctx.url),
  ),
  route("GET", `${BASE}/organizers/${kind}/:id`, "public", (ctx) =>
    ctx.larder.explore.organizer(ctx.params.group, kind, ctx.params.id),
  ),
];

export const exploreRoutes = [
  route("GET", `${BASE}/recipes`, "public", (ctx) => ctx.larder.explore.recipes(ctx.params.group, ctx.url)),
  route("GET", `${BASE}/recipes/suggestions`, "public", (ctx) =>
    ctx.larder.explore.suggestions(ctx.params.group, ctx.url),
  ),
  route("GET", `${BASE}/recipes/:slug`, "public", (ctx) =>
    ctx.larder.explore.recipe(ctx.params.group, ctx.params.slug),
  ),
  route("GET", `${BASE}/foods`, "public", (ctx) => ctx.larder.explore.foods(ctx.params.group, ctx.url)),
  route("GET", `${BASE}/foods/:id`, "public", (ctx) =>
    ctx.larder.explore.food(ctx.params.group, ctx.params.id),
  ),
  route("GET", `${BASE}/households`, "public", (ctx) =>
    ctx.larder.explore.households(ctx.params.group, ctx.url),
  ),
  route("GET", `${BASE}/households/:slug`, "public", (ctx) =>
    ctx.larder.explore.household(ctx.params.group, ctx.params.slug),
  ),
  route("GET", `${BASE}/cookbooks`, "public", (ctx) =>
    ctx.larder.explore.cookbooks(ctx.params.group, ctx.url),
  ),
  route("GET", `${BASE}/cookbooks/:id`, "public", (ctx) =>
    ctx.larder.explore.cookbook(ctx.params.group, ctx.params.id),
  ),
  ...organizerRoutes("categories"),
  ...organizerRoutes("tags"),
  ...organizerRoutes("tools"),
];
