/** /api/organizers/{categories,tags,tools} (mealie-api-notes §4.7). */
import { route, type RouteDef } from "../router.js";
import { Reply } from "../reply.js";
import { groupOf } from "./scope.js";
import type { OrganizerKind } from "../../../core/schemas/records.js";
import { presentOrganizer, presentTool } from "../../../core/presenters/vocabulary.js";
import { NotFoundError } from "../../../core/errors.js";
import type { ApiContext } from "../context.js";
import type { OrganizerRecord, ToolRecord } from "../../../core/schemas/records.js";

function present(ctx: ApiContext, kind: OrganizerKind, o: OrganizerRecord | ToolRecord) {
  const groupId = ctx.user.groupId;
  return kind === "tools"
    ? presentTool({ householdsWithTool: [], ...o }, groupId)
    : presentOrganizer(o, groupId);
}

function organizerRoutes(kind: OrganizerKind): RouteDef[] {
  const base = `/api/organizers/${kind}`;
  const notFound =
    kind === "categories" ? "category not found" : kind === "tags" ? "tag not found" : "tool not found";
  return [
    route("GET", base, "user", (ctx) => ctx.larder.recipes.lister.organizers(ctx.actor, kind, ctx.url, base)),
    route("POST", base, "user", async (ctx) =>
      Reply.created(
        present(ctx, kind, await ctx.larder.organizers.create(groupOf(ctx), kind, await ctx.json())),
      ),
    ),
    route("GET", `${base}/empty`, "user", (ctx) =>
      ctx.larder.recipes.lister.emptyOrganizers(ctx.actor, kind),
    ),
    route("GET", `${base}/slug/:slug`, "user", (ctx) => {
      const g = groupOf(ctx);
      const o = ctx.larder.organizers.find(g, kind, ctx.params.slug);
      if (!o) throw new NotFoundError(notFound);
      return {
        ...present(ctx, kind, o),
        recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, o.name),
      };
    }),
    route("GET", `${base}/:id`, "user", (ctx) => {
      const o = ctx.larder.organizers.get(groupOf(ctx), kind, ctx.params.id);
      return kind === "tags"
        ? {
            ...present(ctx, kind, o),
            recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, o.name),
          }
        : present(ctx, kind, o);
    }),
    route("PUT", `${base}/:id`, "user", async (ctx) => {
      const g = groupOf(ctx);
      const { record, oldName } = await ctx.larder.organizers.update(
        g,
        kind,
        ctx.params.id,
        await ctx.json(),
      );
      if (oldName !== record.name) await ctx.larder.recipes.renameOrganizer(g, kind, oldName, record.name);
      return kind === "tags"
        ? {
            ...present(ctx, kind, record),
            recipes: ctx.larder.recipes.lister.recipesWithOrganizer(ctx.actor, kind, record.name),
          }
        : present(ctx, kind, record);
    }),
    route("DELETE", `${base}/:id`, "user", async (ctx) => {
      const g = groupOf(ctx);
      const removed = await ctx.larder.organizers.remove(g, kind, ctx.params.id);
      await ctx.larder.recipes.renameOrganizer(g, kind, removed.name, null);
      return present(ctx, kind, removed);
    }),
  ];
}

export const organizerRoutesAll = [
  ...organizerRoutes("categories"),
  ...organizerRoutes("tags"),
  ...organizerRoutes("tools"),
];
