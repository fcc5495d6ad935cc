/** /api/foods and /api/units (mealie-api-notes §4.8), with merge: HTTP over core's FoodsUnitsService. */
import { z } from "zod";
import { route, type RouteDef } from "../router.js";
import { Reply } from "../reply.js";
import type { ApiContext } from "../context.js";
import { listed } from "../listed.js";

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
    route("GET", base, "user", (ctx) =>
      crud(
        ctx,
        listed(ctx, base, (q) => ctx.larder.foodsUnits.query(ctx.actor, kind, q)),
      ),
    ),
    route("POST", base, "user", async (ctx) =>
      Reply.created(await ctx.larder.foodsUnits.create(ctx.actor, kind, await ctx.json())),
    ),
    route("PUT", `${base}/merge`, "user", async (ctx) => {
      const { from, to } = MergeIn.parse((await ctx.json()) ?? {});
      await ctx.larder.foodsUnits.merge(ctx.actor, kind, from, to);
      return {
        message: kind === "foods" ? "Successfully merged foods" : "Successfully merged units",
        error: false,
      };
    }),
    route("GET", `${base}/:id`, "user", (ctx) =>
      crud(ctx, ctx.larder.foodsUnits.get(ctx.actor, kind, ctx.params.id)),
    ),
    route("PUT", `${base}/:id`, "user", async (ctx) =>
      crud(ctx, await ctx.larder.foodsUnits.replace(ctx.actor, kind, ctx.params.id, await ctx.json())),
    ),
    route("DELETE", `${base}/:id`, "user", (ctx) =>
      ctx.larder.foodsUnits.remove(ctx.actor, kind, ctx.params.id),
    ),
  ];
}

export const foodUnitRoutes = [...routes("foods"), ...routes("units")];
