/**
 * Larder's own (not Mealie's) recipe history from git, decision 0074:
 *   GET  /api/larder/recipes/:slug/history              the commits that touched the recipe
 *   GET  /api/larder/recipes/:slug/history/:rev         that version's text and diff
 *   POST /api/larder/recipes/:slug/history/:rev/restore put it back (admins)
 * An empty list when the data folder is not a git repository.
 */
import { RecipeHistory } from "../../../core/git/history.js";
import { route } from "../router.js";

const history = (ctx: { larder: ConstructorParameters<typeof RecipeHistory>[0] }) =>
  new RecipeHistory(ctx.larder);

export const larderHistoryRoutes = [
  route("GET", "/api/larder/recipes/:slug/history", "user", (ctx) =>
    history(ctx).list(ctx.actor, ctx.params.slug),
  ),
  route("GET", "/api/larder/recipes/:slug/history/:rev", "user", (ctx) =>
    history(ctx).version(ctx.actor, ctx.params.slug, ctx.params.rev),
  ),
  route("POST", "/api/larder/recipes/:slug/history/:rev/restore", "user", (ctx) =>
    history(ctx).restore(ctx.actor, ctx.params.slug, ctx.params.rev),
  ),
];
