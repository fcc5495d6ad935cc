/** /api/users/{id}/ratings|favorites and /api/users/self/ratings|favorites (mealie-api-notes §4.3). */
import { route } from "../router.js";
import { RatingUpdateIn } from "../../../core/ratings/ratings-service.js";

export const ratingRoutes = [
  route("GET", "/api/users/self/ratings", "user", (ctx) => ({
    ratings: ctx.larder.ratings.forSelf(ctx.actor, false),
  })),
  route("GET", "/api/users/self/ratings/:recipeId", "user", (ctx) =>
    ctx.larder.ratings.selfFor(ctx.actor, ctx.params.recipeId),
  ),
  route("GET", "/api/users/self/favorites", "user", (ctx) => ({
    ratings: ctx.larder.ratings.forSelf(ctx.actor, true),
  })),
  route("GET", "/api/users/:id/ratings", "user", (ctx) => ({
    ratings: ctx.larder.ratings.forUser(ctx.actor, ctx.params.id, false),
  })),
  route("GET", "/api/users/:id/favorites", "user", (ctx) => ({
    ratings: ctx.larder.ratings.forUser(ctx.actor, ctx.params.id, true),
  })),
  route("POST", "/api/users/:id/ratings/:slug", "user", async (ctx) => {
    const body = RatingUpdateIn.parse((await ctx.json()) ?? {});
    await ctx.larder.ratings.set(ctx.actor, ctx.params.id, ctx.params.slug, {
      rating: body.rating,
      isFavorite: body.isFavorite,
    });
    return null;
  }),
  route("POST", "/api/users/:id/favorites/:slug", "user", async (ctx) => {
    await ctx.larder.ratings.set(ctx.actor, ctx.params.id, ctx.params.slug, { isFavorite: true });
    return null;
  }),
  route("DELETE", "/api/users/:id/favorites/:slug", "user", async (ctx) => {
    await ctx.larder.ratings.set(ctx.actor, ctx.params.id, ctx.params.slug, { isFavorite: false });
    return null;
  }),
];
