/**
 * mealie-mcp-server (rldiao/mealie-mcp-server, an MCP server that lets an assistant drive Mealie),
 * replayed against Larder as its httpx client sends it: query values through httpx (booleans as
 * `true`, lists repeated, None dropped), `json={}` and bodiless POSTs, and updates that GET the
 * object, merge the caller's fields over it and PUT the whole back (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { newRecipe } from "../../support/members.js";
import { send, withJson } from "./send.js";

let t: TestServer;
let apiKey: string;
type Json = Record<string, unknown>;

/** httpx: `params` with None dropped, True as "true", lists repeated; `json=` sets the content type. */
async function mcp(method: string, path: string, opts: { params?: Json; json?: unknown } = {}) {
  const url = new URL(t.url + path);
  for (const [k, v] of Object.entries(opts.params ?? {})) {
    if (v === null || v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(x));
  }
  return send(url, withJson({ Authorization: `Bearer ${apiKey}` }, method, opts.json));
}

beforeAll(async () => {
  t = await startTestServer();
  const login = await t.login();
  const made = await t.api("/api/users/api-tokens", { method: "POST", token: login, json: { name: "mcp" } });
  apiKey = ((await made.json()) as { token: string }).token;
});
afterAll(async () => t?.close());

describe("mealie-mcp-server against Larder", () => {
  it("searches recipes with its full parameter set, and patches, duplicates and marks one made", async () => {
    expect((await mcp("GET", "/api/app/about")).status).toBe(200);
    const tag = (await mcp("POST", "/api/organizers/tags", { json: { name: "Weeknight" } })).body as Json;
    const r = await newRecipe(t, apiKey, "Assistant Curry", { tags: [tag] });
    const found = await mcp("GET", "/api/recipes", {
      params: {
        search: "curry",
        orderBy: "name",
        orderByNullPosition: null,
        orderDirection: "desc",
        queryFilter: null,
        paginationSeed: null,
        page: 1,
        perPage: 10,
        categories: null,
        tags: [tag.slug],
        tools: null,
        requireAllTags: true,
        requireAllCategories: null,
        requireAllTools: null,
      },
    });
    expect(found.status).toBe(200);
    expect((found.body as { items: Json[] }).items.map((i) => i.slug)).toEqual([r.slug]);

    const patched = await mcp("PATCH", `/api/recipes/${r.slug}`, { json: { description: "Mild" } });
    expect((patched.body as Json).description).toBe("Mild");
    const copy = await mcp("POST", `/api/recipes/${r.slug}/duplicate`, { json: {} });
    expect(copy.status).toBe(201);
    const named = await mcp("POST", `/api/recipes/${r.slug}/duplicate`, { json: { name: "Hot Curry" } });
    expect((named.body as Json).name).toBe("Hot Curry");
    // datetime.utcnow().isoformat() + "Z": microseconds and a Z.
    const stamp = `${new Date().toISOString().slice(0, 19)}.123456Z`;
    const made = await mcp("PATCH", `/api/recipes/${r.slug}/last-made`, { json: { timestamp: stamp } });
    expect(made.status).toBe(200);
    expect(((await mcp("GET", `/api/recipes/${r.slug}`)).body as Json).lastMade).toBeTruthy();
  });

  it("plans by title with its breakfast default, lists by date, and PUTs the entry back with a new title", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const made = await mcp("POST", "/api/households/mealplans", {
      json: { date: day, entryType: "breakfast", title: "Porridge" },
    });
    expect(made.status).toBe(201);
    const entry = made.body as Json;
    const listed = await mcp("GET", "/api/households/mealplans", {
      params: { startDate: day, endDate: day, page: null, perPage: null },
    });
    expect((listed.body as { items: Json[] }).items.map((e) => e.id)).toContain(entry.id);
    const put = await mcp("PUT", `/api/households/mealplans/${entry.id as number}`, {
      json: { ...entry, title: "Overnight oats" },
    });
    expect(put.status).toBe(200);
    expect((put.body as Json).title).toBe("Overnight oats");
    expect((await mcp("DELETE", `/api/households/mealplans/${entry.id as number}`)).status).toBe(200);
  });

  it("shopping: a list renamed by a merged PUT keeps its items; recipes added with {} and removed bodiless; bulk calls", async () => {
    const list = (await mcp("POST", "/api/households/shopping/lists", { json: { name: "Assistant" } }))
      .body as Json;
    const id = list.id as string;
    await mcp("POST", "/api/households/shopping/items", {
      json: { shoppingListId: id, note: "rice", quantity: 2 },
    });
    const current = (await mcp("GET", `/api/households/shopping/lists/${id}`)).body as Json;
    const renamed = await mcp("PUT", `/api/households/shopping/lists/${id}`, {
      json: { ...current, name: "Assistant's list" },
    });
    expect(renamed.status).toBe(200);
    const after = (await mcp("GET", `/api/households/shopping/lists/${id}`)).body as Json;
    expect(after.name).toBe("Assistant's list");
    expect((after.listItems as Json[]).map((i) => i.note)).toEqual(["rice"]);

    const r = await newRecipe(t, apiKey, "Assistant Dal", {
      recipeIngredient: [{ note: "lentils", quantity: 1 }],
    });
    expect(
      (await mcp("POST", `/api/households/shopping/lists/${id}/recipe/${r.id}`, { json: {} })).status,
    ).toBe(200);
    expect((await mcp("POST", `/api/households/shopping/lists/${id}/recipe/${r.id}/delete`)).status).toBe(
      200,
    );
    const back = (await mcp("GET", `/api/households/shopping/lists/${id}`)).body as Json;
    expect(back.recipeReferences).toEqual([]);

    const bulk = await mcp("POST", "/api/households/shopping/items/create-bulk", {
      json: [
        { shoppingListId: id, note: "tea" },
        { shoppingListId: id, note: "milk" },
      ],
    });
    expect(bulk.status).toBe(201);
    const created = (bulk.body as { createdItems: Json[] }).createdItems;
    const item = (await mcp("GET", `/api/households/shopping/items/${created[0].id as string}`)).body as Json;
    const merged = await mcp("PUT", `/api/households/shopping/items/${created[0].id as string}`, {
      json: { ...item, note: "green tea" },
    });
    expect(merged.status).toBe(200);
    const many = await mcp("PUT", "/api/households/shopping/items", {
      json: created.map((c) => ({ ...c, checked: true })),
    });
    expect(many.status).toBe(200);
    const gone = await mcp("DELETE", "/api/households/shopping/items", {
      params: { ids: created.map((c) => c.id as string) },
    });
    expect(gone.status).toBe(200);
    const left = (await mcp("GET", `/api/households/shopping/lists/${id}`)).body as Json;
    expect((left.listItems as Json[]).map((i) => i.note)).toEqual(["rice"]);
  });

  it("updates a food by GET, merge and PUT of the whole record", async () => {
    const created = await mcp("POST", "/api/foods", {
      json: { name: "grains of paradise", description: "" },
    });
    expect(created.status).toBe(201);
    const food = created.body as Json;
    const existing = (await mcp("GET", `/api/foods/${food.id as string}`)).body as Json;
    const put = await mcp("PUT", `/api/foods/${food.id as string}`, {
      json: { ...existing, description: "Peppery seeds" },
    });
    expect(put.status).toBe(200);
    expect((put.body as Json).description).toBe("Peppery seeds");
  });
});
