/** /api/households/mealplans and /rules (mealie-api-notes §4.5, §7): household-scoped. */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { queryRecord } from "../../../core/recipes/recipe-list.js";

const BASE = "/api/households/mealplans";
const RULES = `${BASE}/rules`;

export const mealplanRoutes = [
  route("GET", RULES, "user", (ctx) => ctx.larder.mealplans.listRules(ctx.actor, queryRecord(ctx.query))),
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
  route("GET", BASE, "user", (ctx) => ctx.larder.mealplans.list(ctx.actor, queryRecord(ctx.query))),
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
