/** /api/organizers/{categories,tags,tools} (mealie-api-notes §4.7): HTTP over core's OrganizerActions. */
import { route, type RouteDef } from "../router.js";
import { Reply } from "../reply.js";
import { listed } from "../listed.js";
import type { OrganizerKind } from "../../../core/schemas/records.js";

function organizerRoutes(kind: OrganizerKind): RouteDef[] {
  const base = `/api/organizers/${kind}`;
  return [
    route("GET", base, "user", (ctx) =>
      listed(ctx, base, (q) => ctx.larder.recipes.lister.organizers(ctx.actor, kind, q)),
    ),
    route("POST", base, "user", async (ctx) =>
      Reply.created(await ctx.larder.organizerActions.create(ctx.actor, kind, await ctx.json())),
    ),
    route("GET", `${base}/empty`, "user", (ctx) =>
      ctx.larder.recipes.lister.emptyOrganizers(ctx.actor, kind),
    ),
    route("GET", `${base}/slug/:slug`, "user", (ctx) => {
      const o = ctx.larder.organizerActions.bySlug(ctx.actor, kind, ctx.params.slug);
      return { ...o, recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, o.name) };
    }),
    route("GET", `${base}/:id`, "user", (ctx) => {
      const o = ctx.larder.organizerActions.get(ctx.actor, kind, ctx.params.id);
      return kind === "tags"
        ? { ...o, recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, o.name) }
        : o;
    }),
    route("PUT", `${base}/:id`, "user", async (ctx) => {
      const o = await ctx.larder.organizerActions.update(ctx.actor, kind, ctx.params.id, await ctx.json());
      return kind === "tags"
        ? { ...o, recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, o.name) }
        : o;
    }),
    // Mealie answers a deleted tool with the tool, a deleted tag or category with null.
    route("DELETE", `${base}/:id`, "user", async (ctx) => {
      const removed = await ctx.larder.organizerActions.remove(ctx.actor, kind, ctx.params.id);
      return kind === "tools" ? removed : null;
    }),
  ];
}

export const organizerRoutesAll = [
  ...organizerRoutes("categories"),
  ...organizerRoutes("tags"),
  ...organizerRoutes("tools"),
];
