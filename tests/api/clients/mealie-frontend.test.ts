/**
 * Mealie's own web UI (frontend/lib/api and its composables), replayed against Larder as its axios
 * client sends each call: a multipart login by email with remember_me, `route()`'s query strings
 * (every value through String(), arrays as repeated keys), `getAll`'s page=1&perPage=-1, whole
 * objects PUT back as read, and the bulk shopping calls (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { assertContract, hasContract } from "../../support/contract.js";
import { newRecipe } from "../../support/members.js";
import { FIRST_ADMIN } from "../../../core/larder.js";
import { send, withJson } from "./send.js";

let t: TestServer;
let token: string;
type Json = Record<string, unknown>;

/** The frontend's `route(path, params)`: String() of each value, arrays repeated, nothing dropped. */
function route(path: string, params: Record<string, unknown> = {}): string {
  const url = new URL(path, "http://localhost.com");
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, String(x));
    else url.searchParams.append(k, String(v));
  }
  return url.toString().replace("http://localhost.com", "");
}
/** axios' `params`: null and undefined left out, arrays as repeated keys (the UI's serializer). */
function axiosParams(path: string, params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
async function ui(method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = {
    Accept: "application/json, text/plain, */*",
    "Accept-Language": "en-US",
    Authorization: `Bearer ${token}`,
  };
  return send(t.url + path, withJson(headers, method, json));
}
const day = (n = 0) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

describe("Mealie's web UI against Larder", () => {
  it("signs in with a multipart form carrying the email as username and remember_me=true", async () => {
    const form = new FormData();
    form.append("username", FIRST_ADMIN.email);
    form.append("password", FIRST_ADMIN.password);
    form.append("remember_me", "true");
    const res = await fetch(`${t.url}/api/auth/token`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe("bearer");
    token = body.access_token;
    const self = await ui("GET", "/api/users/self");
    expect(self.status).toBe(200);
    if (hasContract) assertContract("UserOut", self.body);
  });

  it("the recipe explorer's query: seeds, null position, repeated organizer ids, booleans as 'false'", async () => {
    const cat = (await ui("POST", "/api/organizers/categories", { name: "Soups" })).body as Json;
    const tag = (await ui("POST", "/api/organizers/tags", { name: "Quick" })).body as Json;
    const tag2 = (await ui("POST", "/api/organizers/tags", { name: "Cheap" })).body as Json;
    const a = await newRecipe(t, token, "Explorer Leek Soup", { recipeCategory: [cat], tags: [tag] });
    await newRecipe(t, token, "Explorer Bean Soup", { recipeCategory: [cat], tags: [tag2] });
    await newRecipe(t, token, "Explorer Toast", { tags: [tag] });
    const seed = Date.now().toString();
    const params = {
      page: 1,
      perPage: 32,
      orderBy: "created_at",
      orderDirection: "desc",
      orderByNullPosition: "last",
      paginationSeed: seed,
      searchSeed: seed,
      search: "explorer",
      cookbook: undefined,
      households: undefined,
      categories: [cat.id],
      requireAllCategories: false,
      tags: [tag.id, tag2.id],
      requireAllTags: false,
      tools: undefined,
      requireAllTools: false,
      foods: undefined,
      requireAllFoods: false,
      queryFilter: null,
    };
    const res = await ui("GET", axiosParams("/api/recipes", params));
    expect(res.status).toBe(200);
    if (hasContract) assertContract("PaginationBase_RecipeSummary_", res.body);
    const names = (res.body as { items: Json[] }).items.map((i) => i.name).sort();
    expect(names).toEqual(["Explorer Bean Soup", "Explorer Leek Soup"]);
    const all = await ui(
      "GET",
      axiosParams("/api/recipes", { ...params, tags: [tag.id], requireAllTags: true }),
    );
    expect((all.body as { items: Json[] }).items.map((i) => i.slug)).toEqual([a.slug]);

    // "Random" in the explorer and the dashboard's random recipe: orderBy=random with a seed, perPage=1.
    const random = await ui(
      "GET",
      axiosParams("/api/recipes", { page: 1, perPage: 1, orderBy: "random", paginationSeed: seed }),
    );
    expect(random.status).toBe(200);
    expect((random.body as { items: unknown[] }).items.length).toBe(1);
    // The route() helper of the search page sends what it has, undefined written out.
    const viaRoute = await ui("GET", route("/api/recipes", { search: "toast", orderDirection: "asc" }));
    expect((viaRoute.body as { items: Json[] }).items.map((i) => i.name)).toEqual(["Explorer Toast"]);
  });

  it("a cookbook's page lists by cookbook slug; the cookbook list is getAll with page=1&perPage=-1", async () => {
    const cat = (await ui("POST", "/api/organizers/categories", { name: "Breads" })).body as Json;
    await newRecipe(t, token, "Cookbook Rye", { recipeCategory: [cat] });
    const made = await ui("POST", "/api/households/cookbooks", {
      name: "Bread book",
      description: "",
      public: false,
      queryFilterString: `recipe_category.id IN ["${cat.id as string}"]`,
    });
    expect(made.status).toBe(201);
    const book = made.body as Json;
    const books = await ui("GET", "/api/households/cookbooks?page=1&perPage=-1");
    expect((books.body as { items: Json[] }).items.map((b) => b.slug)).toContain(book.slug);
    const page = await ui("GET", axiosParams("/api/recipes", { page: 1, perPage: 32, cookbook: book.slug }));
    expect((page.body as { items: Json[] }).items.map((i) => i.name)).toEqual(["Cookbook Rye"]);
    // The cookbook editor PUTs the whole list back to reorder.
    const all = (books.body as { items: Json[] }).items;
    const reordered = await ui(
      "PUT",
      "/api/households/cookbooks",
      all.map((b, i) => ({ ...b, position: i + 1 })),
    );
    expect(reordered.status).toBe(200);
  });

  it("the recipe page: PUT the whole recipe back as read, last made, a timeline by queryFilter, a zip token", async () => {
    const r = await newRecipe(t, token, "Whole Recipe Stew", {
      recipeIngredient: [{ note: "3 carrots" }],
      recipeInstructions: [{ text: "Stew." }],
    });
    const read = (await ui("GET", `/api/recipes/${r.slug}`)).body as Json;
    const put = await ui("PUT", `/api/recipes/${r.slug}`, { ...read, description: "Edited in the UI" });
    expect(put.status).toBe(200);
    expect((put.body as Json).description).toBe("Edited in the UI");
    if (hasContract) assertContract("Recipe-Output", put.body);

    const made = await ui("PATCH", `/api/recipes/${r.slug}/last-made`, {
      timestamp: new Date().toISOString(),
    });
    expect(made.status).toBe(200);
    const ev = await ui("POST", "/api/recipes/timeline/events", {
      recipeId: r.id,
      subject: "Made it",
      eventType: "comment",
      eventMessage: "Good",
      timestamp: new Date().toISOString(),
    });
    expect(ev.status).toBe(201);
    const timeline = await ui(
      "GET",
      axiosParams("/api/recipes/timeline/events", {
        page: 1,
        perPage: -1,
        queryFilter: `recipe_id="${r.id}"`,
        orderBy: "timestamp",
        orderDirection: "asc",
      }),
    );
    expect(timeline.status).toBe(200);
    const subjects = (timeline.body as { items: Json[] }).items.map((e) => e.subject);
    expect(subjects).toContain("Made it");

    const zip = await ui("POST", `/api/recipes/${r.slug}/exports`, {});
    expect(zip.status).toBe(200);
    const zipToken = (zip.body as { token: string }).token;
    const dl = await fetch(`${t.url}/api/recipes/${r.slug}/exports/zip?token=${zipToken}`);
    expect(dl.status).toBe(200);
  });

  it("bulk actions from the data management page take organizer objects and recipe slugs", async () => {
    const x = await newRecipe(t, token, "Bulk One");
    const y = await newRecipe(t, token, "Bulk Two");
    const tag = (await ui("POST", "/api/organizers/tags", { name: "Bulk Tag" })).body as Json;
    const cat = (await ui("POST", "/api/organizers/categories", { name: "Bulk Cat" })).body as Json;
    expect(
      (await ui("POST", "/api/recipes/bulk-actions/tag", { recipes: [x.slug, y.slug], tags: [tag] })).status,
    ).toBe(200);
    expect(
      (await ui("POST", "/api/recipes/bulk-actions/categorize", { recipes: [x.slug], categories: [cat] }))
        .status,
    ).toBe(200);
    expect(
      (
        await ui("POST", "/api/recipes/bulk-actions/settings", {
          recipes: [y.slug],
          settings: {
            public: false,
            showNutrition: true,
            showAssets: true,
            landscapeView: false,
            disableComments: true,
            locked: false,
          },
        })
      ).status,
    ).toBe(200);
    const one = (await ui("GET", `/api/recipes/${x.slug}`)).body as Json;
    expect((one.tags as Json[]).map((g) => g.name)).toEqual(["Bulk Tag"]);
    expect((one.recipeCategory as Json[]).map((g) => g.name)).toEqual(["Bulk Cat"]);
    const two = (await ui("GET", `/api/recipes/${y.slug}`)).body as Json;
    expect(two.settings).toMatchObject({ public: false, disableComments: true });
    expect((await ui("POST", "/api/recipes/bulk-actions/delete", { recipes: [x.slug, y.slug] })).status).toBe(
      200,
    );
    expect((await ui("GET", `/api/recipes/${x.slug}`)).status).toBe(404);
  });

  it("shopping list page: add recipes with a scale, remove one, updateMany whole items, deleteMany with a trailing &", async () => {
    const soup = await newRecipe(t, token, "List Soup", {
      recipeIngredient: [
        { note: "2 onions", quantity: 2 },
        { note: "1 stock cube", quantity: 1 },
      ],
    });
    const list = (await ui("POST", "/api/households/shopping/lists", { name: "Week" })).body as Json;
    const listId = list.id as string;
    const full = (await ui("GET", `/api/recipes/${soup.slug}`)).body as Json;
    const add = await ui("POST", `/api/households/shopping/lists/${listId}/recipe`, [
      { recipeId: soup.id, recipeIncrementQuantity: 2, recipeIngredients: full.recipeIngredient },
    ]);
    expect(add.status).toBe(200);
    if (hasContract) assertContract("ShoppingListOut", add.body);
    let items = ((await ui("GET", `/api/households/shopping/lists/${listId}`)).body as Json)
      .listItems as Json[];
    expect(items.length).toBe(2);
    expect(items.map((i) => i.quantity).sort()).toEqual([2, 4]);
    const refs = ((await ui("GET", `/api/households/shopping/lists/${listId}`)).body as Json)
      .recipeReferences as Json[];
    expect(refs[0]).toMatchObject({ recipeId: soup.id, recipeQuantity: 2 });

    // The older single-recipe route with a null body, then a decrement of one.
    expect(
      (await ui("POST", `/api/households/shopping/lists/${listId}/recipe/${soup.id}`, null)).status,
    ).toBe(200);
    const removed = await ui("POST", `/api/households/shopping/lists/${listId}/recipe/${soup.id}/delete`, {
      recipeDecrementQuantity: 1,
    });
    expect(removed.status).toBe(200);
    items = ((await ui("GET", `/api/households/shopping/lists/${listId}`)).body as Json).listItems as Json[];
    expect(items.map((i) => i.quantity).sort()).toEqual([2, 4]);

    // Check everything off: the whole ShoppingListItemOut array PUT back.
    const many = await ui(
      "PUT",
      "/api/households/shopping/items",
      items.map((i) => ({ ...i, checked: true })),
    );
    expect(many.status).toBe(200);
    if (hasContract) assertContract("ShoppingListItemsCollectionOut", many.body);
    items = ((await ui("GET", `/api/households/shopping/lists/${listId}`)).body as Json).listItems as Json[];
    expect(items.every((i) => i.checked === true)).toBe(true);

    let query = "?";
    for (const i of items) query += `ids=${i.id as string}&`;
    const del = await ui("DELETE", `/api/households/shopping/items${query}`);
    expect(del.status).toBe(200);
    items = ((await ui("GET", `/api/households/shopping/lists/${listId}`)).body as Json).listItems as Json[];
    expect(items).toEqual([]);
  });

  it("meal planner: the week by start_date/end_date with getAll paging, a random dinner, and rules", async () => {
    await newRecipe(t, token, "Planner Pie");
    const random = await ui("POST", "/api/households/mealplans/random", {
      date: day(3),
      entryType: "dinner",
    });
    expect(random.status).toBe(200);
    if (hasContract) assertContract("ReadPlanEntry", random.body);
    const week = await ui(
      "GET",
      axiosParams("/api/households/mealplans", {
        page: 1,
        perPage: -1,
        start_date: day(),
        end_date: day(6),
      }),
    );
    expect(week.status).toBe(200);
    expect((week.body as { items: Json[] }).items.map((e) => e.date)).toContain(day(3));
    const rule = await ui("POST", "/api/households/mealplans/rules", {
      day: "unset",
      entryType: "unset",
      queryFilterString: "",
    });
    expect(rule.status).toBe(201);
    const rules = await ui("GET", "/api/households/mealplans/rules?page=1&perPage=-1");
    expect((rules.body as { items: unknown[] }).items.length).toBe(1);
  });

  it("household and group preferences: read, then the whole object PUT back changed", async () => {
    const prefs = (await ui("GET", "/api/households/preferences")).body as Json;
    if (hasContract) assertContract("ReadHouseholdPreferences", prefs);
    const put = await ui("PUT", "/api/households/preferences", { ...prefs, firstDayOfWeek: 1 });
    expect(put.status).toBe(200);
    expect((put.body as Json).firstDayOfWeek).toBe(1);
    const gp = (await ui("GET", "/api/groups/preferences")).body as Json;
    const gput = await ui("PUT", "/api/groups/preferences", { ...gp, privateGroup: false });
    expect(gput.status).toBe(200);
    const stats = await ui("GET", "/api/households/statistics");
    expect(stats.status).toBe(200);
    const members = await ui("GET", route("/api/households/members", { page: 1, perPage: -1 }));
    expect(members.status).toBe(200);
  });

  it("signed out, a public group's explore pages list and open recipes with the explorer's query", async () => {
    const gp = (await ui("GET", "/api/groups/preferences")).body as Json;
    await ui("PUT", "/api/groups/preferences", { ...gp, privateGroup: false });
    const hp = (await ui("GET", "/api/households/preferences")).body as Json;
    await ui("PUT", "/api/households/preferences", { ...hp, privateHousehold: false });
    const r = await newRecipe(t, token, "Public Pie", { settings: { public: true } });
    const slug = ((await ui("GET", "/api/groups/self")).body as Json).slug as string;
    const seed = Date.now().toString();
    const path = axiosParams(`/api/explore/groups/${slug}/recipes`, {
      page: 1,
      perPage: 32,
      orderBy: "created_at",
      orderDirection: "desc",
      orderByNullPosition: "last",
      paginationSeed: seed,
      searchSeed: seed,
      search: "public",
      requireAllCategories: false,
      requireAllTags: false,
      requireAllTools: false,
      requireAllFoods: false,
    });
    const list = await fetch(t.url + path);
    expect(list.status).toBe(200);
    const items = ((await list.json()) as { items: Json[] }).items;
    expect(items.map((i) => i.slug)).toEqual([r.slug]);
    expect((await fetch(`${t.url}/api/explore/groups/${slug}/recipes/${r.slug}`)).status).toBe(200);
    for (const part of ["organizers/categories", "organizers/tags", "households", "cookbooks", "foods"])
      expect((await fetch(`${t.url}/api/explore/groups/${slug}/${part}?page=1&perPage=-1`)).status).toBe(200);
  });

  it("the ingredient parser and the foods and units pickers", async () => {
    const parsed = await ui("POST", "/api/parser/ingredients", {
      parser: "nlp",
      ingredients: ["2 cups flour", "1 tsp salt"],
    });
    expect(parsed.status).toBe(200);
    expect((parsed.body as unknown[]).length).toBe(2);
    const foods = await ui("GET", "/api/foods?page=1&perPage=-1&orderBy=name&orderDirection=asc");
    expect(foods.status).toBe(200);
    const units = await ui("GET", "/api/units?page=1&perPage=-1");
    expect(units.status).toBe(200);
    const labels = await ui("GET", "/api/groups/labels?page=1&perPage=-1");
    expect(labels.status).toBe(200);
  });
});
