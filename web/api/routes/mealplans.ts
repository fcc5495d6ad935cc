/** /api/households/mealplans and /rules (mealie-api-notes §4.5, §7): household-scoped. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { ValidationError } from "../../../core/errors.js";
import { isRealDate } from "../../../core/mealplans/dates.js";
import { listed } from "../listed.js";
import type { ApiContext } from "../context.js";

const BASE = "/api/households/mealplans";
const RULES = `${BASE}/rules`;
const DATE_KEYS = ["start_date", "end_date", "startDate", "endDate"];

/** `start_date`/`end_date` (or camelCase), the last given of each; 422 unless a real YYYY-MM-DD. */
function dateParam(ctx: ApiContext, name: "start_date" | "end_date"): string | null {
  const camel = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  const given = ctx.query.getAll(name);
  const x = given.length ? given[given.length - 1] : (ctx.query.getAll(camel).pop() ?? null);
  if (x === null || x === "") return null;
  if (!isRealDate(x)) {
    throw new ValidationError([
      {
        loc: ["query", name],
        msg: "Input should be a valid date in the format YYYY-MM-DD",
        type: "date_from_datetime_parsing",
      },
    ]);
  }
  return x;
}

export const mealplanRoutes = [
  route("GET", RULES, "user", (ctx) =>
    listed(ctx, RULES, (q) => ctx.larder.mealplans.listRules(ctx.actor, q)),
  ),
  route("POST", RULES, "user", async (ctx) =>
    Reply.created(await ctx.larder.mealplans.createRule(ctx.actor, await ctx.json())),
  ),
  route("GET", `${RULES}/:id`, "user", (ctx) => ctx.larder.mealplans.getRule(ctx.actor, ctx.params.id)),
  route("PUT", `${RULES}/:id`, "user", async (ctx) =>
    ctx.larder.mealplans.updateRule(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${RULES}/:id`, "user", async (ctx) =>
    ctx.larder.mealplans.removeRule(ctx.actor, ctx.params.id),
  ),
  route("GET", BASE, "user", (ctx) => {
    const startDate = dateParam(ctx, "start_date");
    const endDate = dateParam(ctx, "end_date");
    return listed(ctx, BASE, (q) => ctx.larder.mealplans.list(ctx.actor, { ...q, startDate, endDate }), {
      omit: DATE_KEYS,
    });
  }),
  route("POST", BASE, "user", async (ctx) =>
    Reply.created(await ctx.larder.mealplans.create(ctx.actor, await ctx.json())),
  ),
  route("GET", `${BASE}/today`, "user", (ctx) => ctx.larder.mealplans.today(ctx.actor)),
  route("POST", `${BASE}/random`, "user", async (ctx) =>
    ctx.larder.mealplans.random(ctx.actor, await ctx.json()),
  ),
  route("GET", `${BASE}/:id`, "user", (ctx) => ctx.larder.mealplans.get(ctx.actor, ctx.params.id)),
  route("PUT", `${BASE}/:id`, "user", async (ctx) =>
    ctx.larder.mealplans.update(ctx.actor, ctx.params.id, await ctx.json()),
  ),
  route("DELETE", `${BASE}/:id`, "user", async (ctx) =>
    ctx.larder.mealplans.remove(ctx.actor, ctx.params.id),
  ),
];
