/**
 * Every operation of the Mealie contract, walked once with a realistic request against one server: reads
 * first, then writes, then deletes, over entities the walk made through the API. Each answer must come
 * from a route (no 404 "Not Found" / 405), never be a 5xx, validate against the contract's schema for
 * its status when it is a 2xx, and carry Mealie's `{"detail": …}` when it is not. The few operations
 * that cannot succeed here are listed in EXPECTED with their reason and status.
 */
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  assertContractSchema,
  contractOperations,
  contractSchemas,
  hasContract,
  type ContractOperation,
} from "../support/contract.js";
import { startTestServer, type TestServer } from "../support/server.js";
import {
  fillPath,
  minimalBody,
  REQUESTS,
  type WalkContext,
  type WalkRequest,
} from "../support/walk-requests.js";
import { makeEverything, multipart, send, startSite, type World } from "../support/walk-world.js";

/** Operations that cannot answer 2xx in a test, the status they must give, and why. */
const EXPECTED: Record<string, { status: number; why: string }> = {
  "GET /api/auth/oauth": { status: 404, why: "OIDC is off here: Larder's 404 where Mealie fails with a 500" },
  "GET /api/auth/oauth/callback": { status: 404, why: "OIDC is off here, as above" },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const listOf = (name: string) => ({ type: "array", items: ref(name) });
const RECIPE = ref("Recipe-Output");
const TOKEN = {
  type: "object",
  properties: { access_token: { type: "string" }, token_type: { type: "string", const: "bearer" } },
};
/**
 * What Mealie's code sends where the contract types the answer as anything (`{}`): checked as strictly
 * as a declared schema, so an answer Mealie's clients read is not left unchecked.
 */
const MEALIE_SENDS: Record<string, Record<string, unknown>> = {
  "POST /api/auth/token": TOKEN,
  "GET /api/auth/refresh": TOKEN,
  "PUT /api/users/password": ref("SuccessResponse"),
  "PUT /api/users/{item_id}": ref("SuccessResponse"),
  "GET /api/households/mealplans/today": listOf("ReadPlanEntry"),
  "DELETE /api/groups/reports/{item_id}": ref("SuccessResponse"),
  "POST /api/recipes/create/url/bulk": {
    type: "object",
    properties: { reportId: { type: "string", format: "uuid" } },
  },
  "POST /api/recipes/create/zip": { type: "string" },
  "POST /api/recipes/create/image": { type: "string" },
  "PUT /api/recipes": { type: "array", items: RECIPE },
  "PATCH /api/recipes": { type: "array", items: RECIPE },
  "PUT /api/recipes/{slug}": RECIPE,
  "PATCH /api/recipes/{slug}": RECIPE,
  "PATCH /api/recipes/{slug}/last-made": RECIPE,
  "DELETE /api/recipes/{slug}": RECIPE,
  "GET /api/recipes/bulk-actions/export/{export_id}/download": ref("FileTokenResponse"),
  "POST /api/organizers/categories": ref("CategoryOut"),
  "GET /api/organizers/categories/slug/{category_slug}": ref("RecipeTagResponse"), // Mealie's RecipeCategoryResponse: the same fields
  "GET /api/organizers/tags/empty": listOf("TagBase"),
  "POST /api/organizers/tags": ref("TagOut"),
};

/** Writes the smallest-body pass leaves out, and why. */
const NOT_MINIMAL: Record<string, string> = {
  "PUT /api/users/password": "without currentPassword it would be a wrong-password 400 on the admin",
  "POST /api/users/reset-password": "needs a reset link's token, which the schema cannot give",
  "POST /api/users/register": "needs an invitation's groupToken, which the schema cannot give",
};

/** Smallest bodies Mealie refuses too, with its own validators beyond the schema. */
const MINIMAL_REFUSED: Record<string, { status: number; why: string }> = {
  "POST /api/households/mealplans": {
    status: 422,
    why: "Mealie's CreatePlanEntry wants a recipeId or a title",
  },
  "PUT /api/households/mealplans/{item_id}": { status: 422, why: "the same validator on UpdatePlanEntry" },
};

/** What Mealie or Larder refuses a plain member (no admin, no household powers), and why. */
const MEMBER_REFUSED: Record<string, { status: number; why: string }> = {
  ...EXPECTED,
  "GET /api/users/self/ratings/{recipe_id}": {
    status: 404,
    why: "the member has not rated it: Mealie's 404",
  },
  "GET /api/households/invitations": {
    status: 403,
    why: "listing invitations needs canInvite (decision 0014)",
  },
  "PUT /api/households/preferences": { status: 403, why: "Mealie's perm:canManageHousehold" },
  "PUT /api/households/permissions": { status: 403, why: "Mealie's perm:canManage" },
  "POST /api/households/invitations": { status: 403, why: "Mealie's perm:canInvite" },
  "POST /api/households/invitations/email": {
    status: 403,
    why: "sending an invitation: canInvite, as making one",
  },
  "PUT /api/groups/preferences": { status: 403, why: "Mealie's perm:canManage" },
  "POST /api/groups/ai-providers/providers": {
    status: 403,
    why: "group settings: canManage (core/ai/providers.ts)",
  },
  "PUT /api/groups/ai-providers/providers/{provider_id}": { status: 403, why: "the same" },
  "PUT /api/groups/ai-providers/settings": { status: 403, why: "the same" },
  "PUT /api/comments/{item_id}": { status: 403, why: "another's comment: Mealie's author-or-admin check" },
  "PUT /api/recipes/timeline/events/{item_id}": {
    status: 403,
    why: "another's event: author or admin (decision 0011)",
  },
  "PUT /api/recipes/timeline/events/{item_id}/image": { status: 403, why: "the same" },
};

const world: World = {
  t: null as unknown as TestServer,
  token: "",
  made: {},
  tokens: {},
  files: {} as WalkContext["files"],
};
const { made, tokens, files } = world;
let site: Server;

/** A fresh server with one of each entity made on it. */
async function freshWorld(): Promise<void> {
  world.t = await startTestServer({ fetchAllow: "127.0.0.1" });
  world.token = await world.t.login();
  await makeEverything(world);
}

beforeAll(async () => {
  if (!hasContract) return;
  site = await startSite(world);
  await freshWorld();
}, 60_000);
afterAll(async () => {
  await world.t?.close();
  await new Promise((r) => (site ? site.close(r) : r(undefined)));
});

/** Deleted after the rest: deleting them takes what is inside them along. */
const PARENTS = ["/api/households/shopping/lists/"];

/** Reads, then writes, then deletes; restoring a backup, which replaces everything, last of all. */
function walkOrder(ops: ContractOperation[]): ContractOperation[] {
  const rank = (o: ContractOperation) =>
    o.path.endsWith("/restore")
      ? 4
      : o.method === "GET"
        ? 0
        : o.method !== "DELETE"
          ? 1
          : PARENTS.some((p) => o.path.startsWith(p))
            ? 3
            : 2;
  return ops
    .map((o, i) => ({ o, i }))
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map((x) => x.o);
}

interface Outcome {
  key: string;
  status: number;
  verdict: "valid" | "expected" | "failed";
  problem?: string;
}

/** The request REQUESTS builds for `o`, or else one with a minimal body from its schema. */
async function requestFor(o: ContractOperation, ctx: WalkContext): Promise<WalkRequest> {
  const build = REQUESTS[`${o.method} ${o.path}`];
  if (build) return build(ctx);
  const req: WalkRequest = {};
  if (o.op.requestBody) {
    const [type, { schema }] = Object.entries(o.op.requestBody.content)[0];
    const value = minimalBody(schema, contractSchemas(), made, o.path);
    if (type === "application/json") req.json = value;
    else req.multipart = value as Record<string, string>;
  }
  return req;
}

/**
 * Send `req` for `o` and judge the answer: a route's, no 5xx, a 2xx valid against the contract, and a
 * non-2xx with Mealie's `{detail}` only where `refusal` allows that status (null: any but a 422).
 */
async function walkOne(
  o: ContractOperation,
  req: WalkRequest,
  refusal: { status: number } | null | undefined = EXPECTED[`${o.method} ${o.path}`],
): Promise<Outcome> {
  const key = `${o.method} ${o.path}`;
  const query = new URLSearchParams(req.query);
  for (const p of o.op.parameters ?? [])
    if (p.in === "query" && p.required && !query.has(p.name)) query.set(p.name, "walk");
  const url = (req.url ?? fillPath(o.path, made)) + (query.size ? `?${query}` : "");
  const tok = req.token === undefined ? world.token : req.token === null ? null : tokens[req.token];
  const init: RequestInit & { token?: string | null; json?: unknown } = { method: o.method, token: tok };
  if (req.json !== undefined) init.json = req.json;
  if (req.form) {
    init.body = new URLSearchParams(req.form);
    init.headers = { "content-type": "application/x-www-form-urlencoded" };
  }
  if (req.multipart) init.body = multipart(req.multipart);
  const res = await world.t.api(url, init);
  const text = await res.text();
  const out = (verdict: Outcome["verdict"], problem?: string): Outcome => ({
    key,
    status: res.status,
    verdict,
    problem: problem && `${problem} (${o.method} ${url}: ${text.slice(0, 240)})`,
  });
  if (res.status === 405 || (res.status === 404 && text === '{"detail":"Not Found"}'))
    return out("failed", "no route");
  if (res.status >= 500) return out("failed", "server error");
  if (res.status < 200 || res.status >= 300) {
    const allowed = refusal === null ? res.status !== 422 : refusal?.status === res.status;
    if (!allowed) return out("failed", `answered ${res.status}`);
    let detail: unknown;
    try {
      detail = (JSON.parse(text) as { detail?: unknown }).detail;
    } catch {
      // checked below
    }
    return detail === undefined ? out("failed", "error without Mealie's {detail}") : out("expected");
  }
  if (refusal) return out("failed", `answered ${res.status}, but is listed as giving ${refusal.status}`);
  const declared = o.op.responses[String(res.status)];
  if (!declared) return out("failed", `status ${res.status} is not one the contract declares`);
  const declaredSchema = declared.content?.["application/json"]?.schema;
  const anything = !declaredSchema || !Object.keys(declaredSchema).some((k) => k !== "title");
  const schema = anything ? MEALIE_SENDS[key] : declaredSchema;
  const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
  if (schema && !isJson) return out("failed", `answered ${res.headers.get("content-type")}, not JSON`);
  if (schema) {
    try {
      assertContractSchema(schema, JSON.parse(text), `${key} ${res.status}`);
    } catch (e) {
      return out("failed", (e as Error).message);
    }
  }
  const body = JSON.parse(isJson && text ? text : "null") as Record<string, unknown> | null;
  noteWhatItMade(key, body);
  if (body && typeof body.reportId === "string") await settled(body.reportId);
  return out("valid");
}

/** Wait for a background import to finish: the walk goes on, and a server closes, with none running. */
async function settled(reportId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const report = await send("GET", `/api/groups/reports/${reportId}`);
    if (report.status !== "in-progress") return;
    if (Date.now() > deadline) throw new Error(`import ${reportId} still running after 20 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What a read hands on to a later operation (a download token is good for one download). */
function noteWhatItMade(key: string, body: Record<string, unknown> | null): void {
  const gives = [
    "GET /api/admin/backups/{file_name}",
    "GET /api/recipes/bulk-actions/export/{export_id}/download",
  ];
  if (gives.includes(key) && body) made.fileToken = String(body.fileToken);
}

const ctx: WalkContext = { made, files, get: (path) => send("GET", path) };

type Listed = { id?: unknown; slug?: unknown };

function report(outcomes: Outcome[], what: string): string[] {
  const count = (v: Outcome["verdict"]) => outcomes.filter((x) => x.verdict === v).length;
  console.log(
    `${what}: ${outcomes.length} sent, ${count("valid")} answered 2xx and validated, ` +
      `${count("expected")} refused as allowed, ${count("failed")} failed`,
  );
  return outcomes.filter((x) => x.verdict === "failed").map((x) => `${x.key} → ${x.status}: ${x.problem}`);
}

describe("every operation of the Mealie contract", () => {
  it.skipIf(!hasContract)(
    "answers from a route, never a 5xx, and validates every 2xx",
    async () => {
      const outcomes: Outcome[] = [];
      for (const o of walkOrder(contractOperations()))
        outcomes.push(await walkOne(o, await requestFor(o, ctx)));
      const refused = outcomes.filter((x) => x.verdict === "expected");
      for (const x of refused) console.log(`  ${x.status} ${x.key}: ${EXPECTED[x.key].why}`);
      expect(report(outcomes, "the walk of every operation")).toEqual([]);
      expect(Object.keys(EXPECTED).filter((k) => !outcomes.some((x) => x.key === k))).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "answers a plain member every read Mealie lets a member make",
    async () => {
      // A fresh server: the walk above deleted what these reads point at.
      await world.t.close();
      for (const k of Object.keys(made)) if (k !== "site") delete made[k];
      await freshWorld();
      const outcomes: Outcome[] = [];
      for (const o of contractOperations().filter(
        (x) => x.method === "GET" && !x.path.startsWith("/api/admin/"),
      ))
        outcomes.push(
          await walkOne(
            o,
            { ...(await requestFor(o, ctx)), token: "spare" },
            MEMBER_REFUSED[`${o.method} ${o.path}`],
          ),
        );
      for (const x of outcomes.filter((x) => x.verdict !== "valid"))
        console.log(`  ${x.status} ${x.key} ${x.problem ?? ""}`);
      expect(report(outcomes, "reads of a plain member")).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "answers a plain member every write Mealie lets a member make",
    async () => {
      const outcomes: Outcome[] = [];
      const writes = contractOperations().filter(
        (o) => !["GET", "DELETE"].includes(o.method) && !/^\/api\/(admin|users)\//.test(o.path),
      );
      for (const o of writes) {
        const req = await requestFor(o, ctx);
        const key = `${o.method} ${o.path}`;
        outcomes.push(await walkOne(o, { ...req, token: req.token ?? "spare" }, MEMBER_REFUSED[key]));
      }
      expect(report(outcomes, "writes of a plain member")).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "answers Mealie's error, from the route, for an entity that does not exist",
    async () => {
      const ghost = "0b1e9c2a-3d4f-4a5b-8c6d-7e8f9a0b1c2d";
      const wrong: string[] = [];
      let sent = 0;
      for (const o of contractOperations().filter((x) => x.path.endsWith("}") && x.method !== "POST")) {
        const url = fillPath(o.path, made).replace(/[^/]+$/, ghost);
        const json = ["PUT", "PATCH"].includes(o.method)
          ? ((await requestFor(o, ctx)).json ?? {})
          : undefined;
        const res = await world.t.api(url, { method: o.method, token: world.token, json });
        const text = await res.text();
        sent++;
        let detail: unknown;
        try {
          detail = (JSON.parse(text) as { detail?: unknown }).detail;
        } catch {
          // no JSON: wrong below
        }
        const routed = text !== '{"detail":"Not Found"}' && res.status !== 405;
        if (res.status < 400 || res.status >= 500 || detail === undefined || !routed)
          wrong.push(`${o.method} ${o.path} → ${res.status}: ${text.slice(0, 200)}`);
      }
      console.log(`misses: ${sent} sent, ${sent - wrong.length} answered Mealie's error`);
      expect(wrong).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "answers every read with all its optional query parameters given",
    async () => {
      const outcomes: Outcome[] = [];
      for (const o of contractOperations().filter((x) => x.method === "GET")) {
        const query: Record<string, string> = {};
        for (const p of o.op.parameters ?? []) {
          const value = p.in === "query" ? queryValue(p.name) : undefined;
          if (value !== undefined) query[p.name] = value;
        }
        if (!Object.keys(query).length) continue;
        outcomes.push(await walkOne(o, { query }));
      }
      expect(report(outcomes, "reads with every optional query parameter")).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "fetches by id and by slug every item a list gives, and validates it",
    async () => {
      const ops = contractOperations().filter((o) => o.method === "GET");
      const under = (list: string, infix: string) =>
        ops.find(
          (o) =>
            o.path.startsWith(`${list}/${infix}{`) &&
            /^\{\w+\}$/.test(o.path.slice(list.length + 1 + infix.length)),
        );
      const outcomes: Outcome[] = [];
      for (const list of ops) {
        const one = under(list.path, "");
        if (!one || list.path.includes("/media/") || list.path.includes("/shopping/lists/{")) continue;
        const bySlug = under(list.path, "slug/");
        // Mealie reads these parameters as an id or a slug.
        const slugToo = /slug\}$/.test(one.path) || one.path.includes("/cookbooks/");
        const res = await world.t.api(`${fillPath(list.path, made)}?perPage=-1`, { token: world.token });
        const body = (await res.json()) as { items?: Listed[] } | Listed[];
        const items = Array.isArray(body) ? body : (body.items ?? []);
        // The first few of each list: seeded foods alone are hundreds, and alike.
        for (const item of items.filter((i) => i.id !== undefined).slice(0, 25)) {
          const at = (op: ContractOperation, key: unknown) =>
            walkOne(op, {
              url: fillPath(op.path.replace(/\{\w+\}$/, encodeURIComponent(String(key))), made),
            });
          outcomes.push(await at(one, item.id));
          if (item.slug !== undefined && slugToo) outcomes.push(await at(one, item.slug));
          if (item.slug !== undefined && bySlug) outcomes.push(await at(bySlug, item.slug));
        }
      }
      expect(report(outcomes, "items fetched by the id and slug their list gives")).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!hasContract)(
    "takes the smallest body the contract allows for every write",
    async () => {
      // Last: these writes rename and merge what the reads above point at.
      const defs = contractSchemas();
      const outcomes: Outcome[] = [];
      for (const o of contractOperations()) {
        const body = o.op.requestBody?.content["application/json"];
        const key = `${o.method} ${o.path}`;
        if (!body || o.method === "GET" || o.method === "DELETE" || NOT_MINIMAL[key]) continue;
        const json = minimalBody(body.schema, defs, made, o.path);
        // Pydantic takes a body the schema allows, so Mealie never 422s it; its own checks may 4xx it.
        outcomes.push(await walkOne(o, { json }, MINIMAL_REFUSED[key] ?? null));
      }
      for (const x of outcomes.filter((x) => x.verdict === "expected")) console.log(`${x.status} ${x.key}`);
      expect(report(outcomes, "writes with their smallest body")).toEqual([]);
    },
    60_000,
  );
});

/** A realistic value for each query parameter the contract names. */
function queryValue(name: string): string | undefined {
  const values: Record<string, string> = {
    page: "1",
    perPage: "5",
    orderBy: "createdAt",
    orderDirection: "desc",
    orderByNullPosition: "last",
    queryFilter: 'createdAt > "2000-01-01"',
    search: "walk",
    categories: made.category,
    tags: made.tag,
    tools: made.tool,
    foods: made.food,
    households: made.householdId,
    cookbook: made.cookbook,
    requireAllCategories: "true",
    requireAllTags: "true",
    requireAllTools: "true",
    requireAllFoods: "false",
    limit: "5",
    maxMissingFoods: "3",
    maxMissingTools: "3",
    includeFoodsOnHand: "true",
    includeToolsOnHand: "true",
    start_date: "2031-05-25",
    end_date: "2031-06-10",
    report_type: "migration",
    recipe_id: made.recipeId,
    template_name: "recipes.md",
  };
  return values[name];
}
