/**
 * What the input fuzz stores before it starts: a "kept" set that no request names (its entities must
 * read the same afterwards) and a "target" set that the fuzz's paths name (they may change when a write
 * is accepted). Everything is made through the API, as a user would.
 */
import type { TestServer } from "../../support/server.js";
import { makeGroup, makeHousehold, makeUser, home } from "../../support/people.js";

type Json = Record<string, unknown>;

export interface Stored {
  token: string;
  selfId: string;
  groupId: string;
  groupSlug: string;
  householdId: string;
  /** Ids the fuzz's paths and bodies name, by role (`recipe`, `food`, `list`, …). */
  target: Record<string, string>;
  /** GET paths of the kept entities: each must answer the same after the fuzz as before it. */
  keptReads: string[];
}

async function call(
  t: TestServer,
  token: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<Json> {
  const res = await t.api(path, { method, token, json });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Json) : {};
}

async function recipe(
  t: TestServer,
  token: string,
  name: string,
  extra: Json,
): Promise<{ id: string; slug: string }> {
  const res = await t.api("/api/recipes", { method: "POST", token, json: { name } });
  const slug = (await res.json()) as string;
  const full = await call(t, token, "GET", `/api/recipes/${slug}`);
  await call(t, token, "PUT", `/api/recipes/${slug}`, { ...full, ...extra });
  return { id: full.id as string, slug };
}

/** One of each entity the fuzz's operations name, for `role` ("kept" or "target"). */
async function set(t: TestServer, token: string, role: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const label = await call(t, token, "POST", "/api/groups/labels", {
    name: `${role} label`,
    color: "#aa3300",
  });
  const food = await call(t, token, "POST", "/api/foods", { name: `${role} flour`, labelId: label.id });
  const unit = await call(t, token, "POST", "/api/units", { name: `${role} cup`, abbreviation: `${role}c` });
  const tag = await call(t, token, "POST", "/api/organizers/tags", { name: `${role} tag` });
  const category = await call(t, token, "POST", "/api/organizers/categories", { name: `${role} category` });
  const tool = await call(t, token, "POST", "/api/organizers/tools", { name: `${role} pot` });
  const r = await recipe(t, token, `${role} soup`, {
    description: `The ${role} soup`,
    recipeYield: "4 bowls",
    recipeServings: 4,
    tags: [tag],
    recipeCategory: [category],
    tools: [tool],
    recipeIngredient: [
      {
        quantity: 2,
        unit,
        food,
        note: "sifted",
        display: "",
        referenceId: "3b8c8e5a-0a5e-4c57-9a57-1c7e0ad0c001",
      },
    ],
    recipeInstructions: [{ text: "Stir.", title: "", ingredientReferences: [] }],
  });
  const list = await call(t, token, "POST", "/api/households/shopping/lists", { name: `${role} list` });
  const item = await call(t, token, "POST", "/api/households/shopping/items", {
    shoppingListId: list.id,
    note: `${role} milk`,
    quantity: 2,
  });
  const itemId = ((item.createdItems as Json[])?.[0]?.id ?? item.id) as string;
  const plan = await call(t, token, "POST", "/api/households/mealplans", {
    date: "2026-03-02",
    entryType: "dinner",
    recipeId: r.id,
  });
  const rule = await call(t, token, "POST", "/api/households/mealplans/rules", {
    day: "monday",
    entryType: "dinner",
    queryFilterString: "",
  });
  const cookbook = await call(t, token, "POST", "/api/households/cookbooks", {
    name: `${role} book`,
    queryFilterString: `tags.name IN ["${role} tag"]`,
  });
  const event = await call(t, token, "POST", "/api/recipes/timeline/events", {
    recipeId: r.id,
    subject: `${role} made it`,
    eventType: "info",
  });
  const comment = await call(t, token, "POST", "/api/comments", { recipeId: r.id, text: `${role} comment` });
  const webhook = await call(t, token, "POST", "/api/households/webhooks", {
    name: `${role} hook`,
    url: "https://hooks.fuzz.invalid/hook",
    scheduledTime: "07:30",
  });
  const notifier = await call(t, token, "POST", "/api/households/events/notifications", {
    name: `${role} notifier`,
    appriseUrl: "json://notify.fuzz.invalid/notify",
  });
  const action = await call(t, token, "POST", "/api/households/recipe-actions", {
    actionType: "link",
    title: `${role} action`,
    url: "https://action.fuzz.invalid/action",
  });
  const provider = await call(t, token, "POST", "/api/groups/ai-providers/providers", {
    name: `${role} model`,
    model: "m",
    baseUrl: "http://127.0.0.1:1/v1",
  });
  Object.assign(ids, {
    label: label.id,
    food: food.id,
    unit: unit.id,
    tag: tag.id,
    category: category.id,
    tool: tool.id,
    recipe: r.id,
    slug: r.slug,
    list: list.id,
    item: itemId,
    plan: String(plan.id),
    rule: rule.id,
    cookbook: cookbook.id,
    cookbookSlug: cookbook.slug,
    event: event.id,
    comment: comment.id,
    webhook: webhook.id,
    notifier: notifier.id,
    action: action.id,
    provider: provider.id,
  });
  return ids;
}

export async function storeFixtures(t: TestServer): Promise<Stored> {
  const token = await t.login();
  const self = await call(t, token, "GET", "/api/users/self");
  const { group, household } = home(t);
  const kept = await set(t, token, "kept");
  const target = await set(t, token, "target");
  const other = await makeGroup(t, "Target Group");
  const otherHousehold = await makeHousehold(t, group, "Target House");
  const member = await makeUser(t, {}, { username: "target-member" });
  const keptMember = await makeUser(t, {}, { username: "kept-member" });
  // The admin's AI check calls the provider it names: one that no fuzzed write changes, on loopback,
  // so the call fails at once rather than reach a provider on the internet.
  const debug = await call(t, token, "POST", "/api/groups/ai-providers/providers", {
    name: "debug model",
    model: "m",
    baseUrl: "http://127.0.0.1:1/v1",
  });
  target.debugProvider = debug.id as string;
  target.user = member.user.id;
  target.group = other.doc.data.id;
  target.household = otherHousehold.doc.data.id;
  const g = group.doc.data.id;
  const keptReads = [
    `/api/recipes/${kept.slug}`,
    `/api/foods/${kept.food}`,
    `/api/units/${kept.unit}`,
    `/api/groups/labels/${kept.label}`,
    `/api/organizers/tags/${kept.tag}`,
    `/api/organizers/categories/${kept.category}`,
    `/api/organizers/tools/${kept.tool}`,
    `/api/households/shopping/lists/${kept.list}`,
    `/api/households/shopping/items/${kept.item}`,
    `/api/households/mealplans/${kept.plan}`,
    `/api/households/mealplans/rules/${kept.rule}`,
    `/api/households/cookbooks/${kept.cookbook}`,
    `/api/recipes/timeline/events/${kept.event}`,
    `/api/comments/${kept.comment}`,
    `/api/households/webhooks/${kept.webhook}`,
    `/api/households/events/notifications/${kept.notifier}`,
    `/api/households/recipe-actions/${kept.action}`,
    `/api/groups/ai-providers/providers/${kept.provider}`,
    `/api/admin/users/${keptMember.user.id}`,
  ];
  return {
    token,
    selfId: self.id as string,
    groupId: g,
    groupSlug: group.slug,
    householdId: household.doc.data.id,
    target,
    keptReads,
  };
}

/** The answers to the kept entities' reads, to compare after the fuzz. */
export async function readKept(t: TestServer, s: Stored): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of s.keptReads) {
    const res = await t.api(path, { token: s.token });
    const body = res.status === 200 ? ((await res.json()) as Json) : `status ${res.status}`;
    // Every new label is added to every shopping list's label settings, as Mealie does.
    if (typeof body === "object" && path.includes("/shopping/lists/")) delete body.labelSettings;
    out[path] = body;
  }
  return out;
}
