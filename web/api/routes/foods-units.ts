/** /api/foods and /api/units (mealie-api-notes §4.8), with merge. */
import { z } from "zod";
import { route, type RouteDef } from "../router.js";
import { Reply } from "../reply.js";
import { groupOf, householdOf } from "./scope.js";
import { presentFood, presentUnit } from "../../../core/presenters/vocabulary.js";
import type { ApiContext } from "../context.js";
import type { FoodRecord, UnitRecord } from "../../../core/schemas/records.js";
import type { IngredientFood, IngredientUnit } from "../../../core/schemas/recipe.js";
import { listQuery } from "../../../core/query/list.js";
import { textRanker } from "../../../core/search/text-search.js";
import { queryRecord } from "../../../core/recipes/recipe-list.js";
import { foodAttributes, unitAttributes } from "../../../core/query/attributes.js";

function presentOne(ctx: ApiContext, kind: "foods" | "units", r: FoodRecord | UnitRecord) {
  const g = groupOf(ctx);
  if (kind === "units") return presentUnit(r as UnitRecord, g.doc.data.id);
  const f = r as FoodRecord;
  const label = f.labelId ? (g.labels.data.labels.find((l) => l.id === f.labelId) ?? null) : null;
  return presentFood(f, g.doc.data.id, label, householdOf(ctx).slug);
}

function routes(kind: "foods" | "units"): RouteDef[] {
  const base = `/api/${kind}`;
  const crud = (ctx: ApiContext, body: unknown) => {
    ctx.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
    return body;
  };
  const MergeIn =
    kind === "foods"
      ? z
          .object({ fromFood: z.string(), toFood: z.string() })
          .loose()
          .transform((m) => ({ from: m.fromFood, to: m.toFood }))
      : z
          .object({ fromUnit: z.string(), toUnit: z.string() })
          .loose()
          .transform((m) => ({ from: m.fromUnit, to: m.toUnit }));
  return [
    route("GET", base, "user", (ctx) => {
      const g = groupOf(ctx);
      const items = ctx.larder.vocabulary.list(g, kind).map((r) => presentOne(ctx, kind, r));
      if (kind === "foods") {
        return crud(
          ctx,
          listQuery(items as IngredientFood[], queryRecord(ctx.query), foodAttributes, {
            route: base,
            search: textRanker<IngredientFood>([(f) => f.name, (f) => f.pluralName]),
            nullsInLinks: "none",
          }),
        );
      }
      return crud(
        ctx,
        listQuery(items as IngredientUnit[], queryRecord(ctx.query), unitAttributes, {
          route: base,
          search: textRanker<IngredientUnit>([
            (u) => u.name,
            (u) => u.pluralName,
            (u) => u.abbreviation,
            (u) => u.pluralAbbreviation,
          ]),
          nullsInLinks: "none",
        }),
      );
    }),
    route("POST", base, "user", async (ctx) =>
      Reply.created(
        presentOne(ctx, kind, await ctx.larder.vocabulary.create(groupOf(ctx), kind, await ctx.json())),
      ),
    ),
    route("PUT", `${base}/merge`, "user", async (ctx) => {
      const { from, to } = MergeIn.parse((await ctx.json()) ?? {});
      await ctx.larder.recipes.mergeVocabulary(groupOf(ctx), kind, from, to);
      return {
        message: kind === "foods" ? "Successfully merged foods" : "Successfully merged units",
        error: false,
      };
    }),
    route("GET", `${base}/:id`, "user", (ctx) =>
      crud(ctx, presentOne(ctx, kind, ctx.larder.vocabulary.get(groupOf(ctx), kind, ctx.params.id))),
    ),
    route("PUT", `${base}/:id`, "user", async (ctx) => {
      const g = groupOf(ctx);
      const { record, old } = await ctx.larder.vocabulary.update(g, kind, ctx.params.id, await ctx.json());
      if (old.name !== record.name) await ctx.larder.recipes.renameVocabulary(g, kind, old.name, record.name);
      return crud(ctx, presentOne(ctx, kind, record));
    }),
    route("DELETE", `${base}/:id`, "user", async (ctx) => {
      const g = groupOf(ctx);
      const removed = await ctx.larder.vocabulary.remove(g, kind, ctx.params.id);
      await ctx.larder.recipes.renameVocabulary(g, kind, removed.name, null);
      return presentOne(ctx, kind, removed);
    }),
  ];
}

export const foodUnitRoutes = [...routes("foods"), ...routes("units")];
