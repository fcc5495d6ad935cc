/**
 * The meal planner's and the plan rules' loaders and writes: each calls core's meal plan service with the
 * signed-in actor (household scope and checks live in core). Results carry codes and core's message,
 * never English of ours: the page turns them into toasts in the reader's language.
 */
import type { AppLoadContext } from "react-router";
import { diskRefusal, statusOf } from "./errors.server.js";
import type { UserActor } from "./session.server.js";
import {
  DEFAULT_ENTRY_TYPE,
  RULE_DAYS,
  RULE_TYPES,
  clampDays,
  isEntryType,
  isPlanDate,
  planDays,
  startOfWeek,
  type EntryType,
  type RuleDay,
  type RuleType,
} from "./mealplan.js";
import { openedCopy } from "./opened-copy.server.js";

export interface PlanRecipeView {
  id: string;
  slug: string;
  name: string;
  image: string | null;
}

export interface PlanEntryView {
  id: number;
  date: string;
  entryType: EntryType;
  title: string;
  text: string;
  recipe: PlanRecipeView | null;
}

export interface PlanRuleView {
  id: string;
  day: RuleDay;
  entryType: RuleType;
  queryFilterString: string;
}

export type PlanResult =
  | { intent: string; ok: true; id?: number | string }
  | { intent: string; ok: false; error: "invalid" | "notFound" | "forbidden" | "failed"; message?: string };

/** A form field; line breaks as typed (form posts send CRLF, which the stored text should not keep). */
const str = (form: FormData, name: string): string => {
  const v = form.get(name);
  return typeof v === "string" ? v.replace(/\r\n?/g, "\n") : "";
};

function failure(intent: string, e: unknown): PlanResult {
  const status = statusOf(e);
  const zod = e instanceof Error && e.name === "ZodError";
  const error =
    status === 404 ? "notFound" : status === 403 ? "forbidden" : status === 422 || zod ? "invalid" : "failed";
  // Core's own messages ("No recipes match your rules", a filter's 422) help the reader; others stay out.
  let message: string | undefined;
  if (status === 404 && e instanceof Error && e.message !== "Not found.") message = e.message;
  if (status === 422 && e && typeof e === "object" && "issues" in e) {
    const issues = (e as { issues?: { msg?: string }[] }).issues;
    message = issues?.map((i) => i.msg).filter(Boolean)[0];
  }
  return { intent, ok: false, error, ...(message ? { message } : {}) };
}

function present(e: {
  id: number;
  date: string;
  entryType: string;
  title: string;
  text: string;
  recipe: { id: string; slug: string; name: string; image: string | null } | null;
}): PlanEntryView {
  return {
    id: e.id,
    date: e.date,
    entryType: isEntryType(e.entryType) ? e.entryType : DEFAULT_ENTRY_TYPE,
    title: e.title,
    text: e.text,
    recipe: e.recipe
      ? { id: e.recipe.id, slug: e.recipe.slug, name: e.recipe.name, image: e.recipe.image }
      : null,
  };
}

/**
 * The planner's page: `start` and `days` from the query, else the week holding today (UTC on the
 * server; the page corrects to the reader's own day and day count after hydration).
 */
export function loadPlanner(context: AppLoadContext, actor: UserActor, url: URL) {
  const { larder } = context;
  const firstDayOfWeek = larder.membership.household(actor).preferences.firstDayOfWeek;
  const startParam = url.searchParams.get("start");
  const daysParam = url.searchParams.get("days");
  const today = new Date().toISOString().slice(0, 10);
  const start = isPlanDate(startParam) ? startParam : startOfWeek(today, firstDayOfWeek);
  const days = planDays(start, clampDays(daysParam));
  const entries = larder.mealplans.between(actor, days[0], days[days.length - 1]).map(present);
  const group = larder.directory.groupById(actor.user.groupId);
  return {
    firstDayOfWeek,
    start,
    explicitStart: isPlanDate(startParam),
    explicitDays: daysParam !== null,
    days,
    entries,
    groupSlug: group?.slug ?? "",
  };
}

function entryFields(form: FormData) {
  const recipeId = str(form, "recipeId").trim();
  const entryType = str(form, "entryType");
  return {
    date: str(form, "date"),
    entryType: isEntryType(entryType) ? entryType : DEFAULT_ENTRY_TYPE,
    title: str(form, "title"),
    text: str(form, "text"),
    recipeId: recipeId || null,
  };
}

/** The planner's writes; `intent` picks one. Also the target of the recipe page's "Add to meal plan". */
export async function runPlannerIntent(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
): Promise<PlanResult> {
  const plans = context.larder.mealplans;
  const intent = str(form, "intent");
  try {
    switch (intent) {
      case "create": {
        const out = await plans.create(actor, entryFields(form));
        return { intent, ok: true, id: out.id };
      }
      case "update": {
        const out = await plans.update(actor, str(form, "id"), entryFields(form), openedCopy(form));
        return { intent, ok: true, id: out.id };
      }
      case "move": {
        // A drag to another day, or its keyboard twin: only the date (and the type, when given) change.
        const cur = plans.get(actor, str(form, "id"));
        const type = str(form, "entryType");
        const out = await plans.update(actor, cur.id, {
          date: str(form, "date"),
          entryType: isEntryType(type) ? type : cur.entryType,
          title: cur.title,
          text: cur.text,
          recipeId: cur.recipeId,
        });
        return { intent, ok: true, id: out.id };
      }
      case "delete": {
        const out = await plans.remove(actor, str(form, "id"));
        return { intent, ok: true, id: out.id };
      }
      case "random": {
        const type = str(form, "entryType");
        const out = await plans.random(actor, {
          date: str(form, "date"),
          entryType: isEntryType(type) ? type : DEFAULT_ENTRY_TYPE,
        });
        return { intent, ok: true, id: out.id };
      }
      case "toList": {
        // The planner's "Add to shopping list": each recipe as often as it is planned, on-hand foods
        // left out (as the recipe menu's picker leaves them unticked).
        let recipes: unknown;
        try {
          recipes = JSON.parse(str(form, "recipes") || "[]");
        } catch {
          return { intent, ok: false, error: "invalid" };
        }
        if (!Array.isArray(recipes) || recipes.length === 0) return { intent, ok: false, error: "invalid" };
        const body = recipes.map((r: { recipeId?: unknown; count?: unknown }) => ({
          recipeId: r?.recipeId,
          recipeIncrementQuantity: typeof r?.count === "number" && r.count > 0 ? r.count : 1,
        }));
        await context.larder.shopping.addRecipesBulk(actor, str(form, "listId"), body, { skipOnHand: true });
        return { intent, ok: true };
      }
      default:
        return { intent, ok: false, error: "invalid" };
    }
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `meal plan: ${intent}`, e);
    if (refused) return { intent, ok: false, error: "failed", message: refused };
    if (statusOf(e) === null && !(e instanceof Error && e.name === "ZodError")) throw e;
    return failure(intent, e);
  }
}

export function loadRules(context: AppLoadContext, actor: UserActor): PlanRuleView[] {
  const env = context.larder.mealplans.listRules(actor, { perPage: -1 });
  return env.items.map((r) => ({
    id: r.id,
    day: r.day,
    entryType: r.entryType as RuleType,
    queryFilterString: r.queryFilterString,
  }));
}

function ruleFields(form: FormData) {
  const day = str(form, "day");
  const type = str(form, "entryType");
  return {
    day: (RULE_DAYS as readonly string[]).includes(day) ? day : "unset",
    entryType: (RULE_TYPES as readonly string[]).includes(type) ? type : "unset",
    queryFilterString: str(form, "queryFilterString").trim(),
  };
}

export async function runRuleIntent(
  context: AppLoadContext,
  actor: UserActor,
  form: FormData,
): Promise<PlanResult> {
  const plans = context.larder.mealplans;
  const intent = str(form, "intent");
  try {
    switch (intent) {
      case "create":
        return { intent, ok: true, id: (await plans.createRule(actor, ruleFields(form))).id };
      case "update":
        return {
          intent,
          ok: true,
          id: (await plans.updateRule(actor, str(form, "id"), ruleFields(form))).id,
        };
      case "delete":
        return { intent, ok: true, id: (await plans.removeRule(actor, str(form, "id"))).id };
      default:
        return { intent, ok: false, error: "invalid" };
    }
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `meal plan rule: ${intent}`, e);
    if (refused) return { intent, ok: false, error: "failed", message: refused };
    if (statusOf(e) === null && !(e instanceof Error && e.name === "ZodError")) throw e;
    return failure(intent, e);
  }
}
