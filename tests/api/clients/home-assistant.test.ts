/**
 * Home Assistant's Mealie integration, through its library aiomealie (the calls of its older and its
 * newest releases), replayed against Larder as it sends its requests: a long-lived API token as
 * Bearer, `Accept: application/json, text/plain, *\/*`, paths joined onto the host without a leading
 * slash, query values as aiohttp writes them. The library's models (mashumaro dataclasses) fail on a
 * missing key, and it raises on any answer whose Content-Type is not JSON, deletes included
 * (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../../support/server.js";
import { assertContract, hasContract } from "../../support/contract.js";
import { newRecipe } from "../../support/members.js";
import { send, withJson } from "./send.js";

let t: TestServer;
let apiToken: string;
let site: Server;
let siteUrl: string;
type Json = Record<string, unknown>;

const day = (n = 0) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** One aiomealie request: `URL(host).joinpath(uri)`, its headers, `params=` and `json=`. */
async function ha(
  method: string,
  uri: string,
  opts: { params?: Record<string, string | number>; json?: unknown; token?: string } = {},
): Promise<{ status: number; type: string; text: string; body: unknown }> {
  const url = new URL(uri, `${t.url}/`);
  for (const [k, v] of Object.entries(opts.params ?? {})) url.searchParams.append(k, String(v));
  const headers: Record<string, string> = {
    "User-Agent": "AioMealie/1.0.0",
    Accept: "application/json, text/plain, */*",
    Authorization: `Bearer ${opts.token ?? apiToken}`,
  };
  return send(url, withJson(headers, method, opts.json));
}

/** What aiomealie's `_request` accepts: not 400/401/404/422, and a JSON Content-Type. */
function accepted(r: { status: number; type: string }) {
  expect([400, 401, 404, 422]).not.toContain(r.status);
  expect(r.type).toContain("application/json");
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ENTRY_TYPES = ["breakfast", "lunch", "dinner", "side", "snack", "drink", "dessert"];

function expectKeys(o: unknown, keys: string[]) {
  for (const k of keys) expect(o, `missing ${k}`).toHaveProperty(k);
}
/** aiomealie's BaseRecipe. */
function baseRecipe(r: unknown) {
  expectKeys(r, ["id", "userId", "groupId", "name", "slug", "description"]);
  const x = r as Json;
  for (const k of ["id", "userId", "groupId", "name", "slug"]) expect(typeof x[k]).toBe("string");
}
/** aiomealie's Mealplan: an int id, a plain date, Mealie's entry type spelling. */
function mealplan(m: unknown) {
  expectKeys(m, ["id", "userId", "groupId", "entryType", "date", "title", "text", "recipe", "householdId"]);
  const x = m as Json;
  expect(Number.isInteger(x.id)).toBe(true);
  expect(x.date).toMatch(DATE);
  expect(ENTRY_TYPES).toContain(x.entryType);
  if (x.recipe !== null) baseRecipe(x.recipe);
}
/** aiomealie's Food and Unit: both need description, aliases and both timestamps as ISO datetimes. */
function foodOrUnit(f: unknown) {
  expectKeys(f, ["id", "name", "description", "aliases", "createdAt", "updatedAt"]);
  const x = f as Json;
  expect(Array.isArray(x.aliases)).toBe(true);
  for (const k of ["createdAt", "updatedAt"]) expect(Number.isNaN(Date.parse(x[k] as string))).toBe(false);
}

beforeAll(async () => {
  site = createServer((req, res) => {
    const ld = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Assistant Stew",
      recipeIngredient: ["2 carrots", "1 onion"],
      recipeInstructions: [{ "@type": "HowToStep", text: "Simmer." }],
      keywords: "winter",
    };
    res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(`<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head></html>`);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
  const login = await t.login();
  const made = await t.api("/api/users/api-tokens", {
    method: "POST",
    token: login,
    json: { name: "Home Assistant" },
  });
  apiToken = ((await made.json()) as { token: string }).token;
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => site?.close(r));
});

describe("Home Assistant (aiomealie) against Larder", () => {
  it("config flow: users/self gives the unique id, about gives a version at least v1.0.0; a bad token is 401", async () => {
    const self = await ha("GET", "api/users/self");
    accepted(self);
    expectKeys(self.body, ["id", "username", "email", "fullName"]);
    expect(typeof (self.body as Json).id).toBe("string");
    const about = await ha("GET", "api/app/about");
    accepted(about);
    const version = (about.body as { version: string }).version;
    const [maj] = version.replace(/^v/, "").split(".").map(Number);
    expect(maj).toBeGreaterThanOrEqual(2);
    const bad = await ha("GET", "api/users/self", { token: "not-a-token" });
    expect(bad.status).toBe(401);
    const startup = await ha("GET", "api/app/about/startup-info");
    accepted(startup);
    expect(typeof (startup.body as Json).isFirstLogin).toBe("boolean");
    const group = await ha("GET", "api/groups/self");
    accepted(group);
    expectKeys(group.body, ["id", "name", "slug"]);
  });

  it("household support is detected by a JSON answer from households/mealplans/today", async () => {
    const r = await ha("GET", "api/households/mealplans/today");
    expect(r.status).toBe(200);
    expect(r.type).toContain("application/json");
    expect(Array.isArray(r.body)).toBe(true);
  });

  it("set_mealplan (recipe or note) and set_random_mealplan answer a Mealplan; the week's range lists them with plain dates", async () => {
    const soup = await newRecipe(t, (await t.login()) as string, "Assistant Soup");
    const byRecipe = await ha("POST", "api/households/mealplans", {
      json: { date: day(), entryType: "lunch", recipeId: soup.id },
    });
    accepted(byRecipe);
    mealplan(byRecipe.body);
    expect((byRecipe.body as { recipe: { slug: string } }).recipe.slug).toBe(soup.slug);
    const byNote = await ha("POST", "api/households/mealplans", {
      json: { date: day(1), entryType: "snack", title: "Fruit", text: "apples" },
    });
    accepted(byNote);
    mealplan(byNote.body);
    const random = await ha("POST", "api/households/mealplans/random", {
      json: { date: day(2), entryType: "dinner" },
    });
    accepted(random);
    mealplan(random.body);
    expect((random.body as Json).recipe).not.toBeNull();

    const week = await ha("GET", "api/households/mealplans", {
      params: { start_date: day(), end_date: day(7), perPage: -1 },
    });
    accepted(week);
    const items = (week.body as { items: unknown[] }).items;
    expect(items.length).toBe(3);
    items.forEach(mealplan);
    if (hasContract) assertContract("PlanEntryPagination", week.body);
    const today = await ha("GET", "api/households/mealplans/today");
    expect((today.body as unknown[]).length).toBe(1);
    (today.body as unknown[]).forEach(mealplan);
  });

  it("get_recipes with search, get_recipe by slug or id, and the image URL the calendar builds", async () => {
    const admin = await t.login();
    const r = await newRecipe(t, admin, "Findable Pie", {
      recipeIngredient: [{ note: "flour", quantity: 2, display: "2 flour" }],
      recipeInstructions: [{ text: "Bake." }],
      tags: [],
    });
    const list = await ha("GET", "api/recipes", { params: { perPage: 50, search: "findable" } });
    accepted(list);
    const items = (list.body as { items: unknown[] }).items;
    expect(items.map((x) => (x as Json).slug)).toEqual([r.slug]);
    items.forEach(baseRecipe);
    for (const key of [r.slug, r.id]) {
      const one = await ha("GET", `api/recipes/${key}`);
      accepted(one);
      baseRecipe(one.body);
      expectKeys(one.body, ["tags", "dateAdded", "recipeIngredient", "recipeInstructions"]);
      const body = one.body as {
        dateAdded: string;
        recipeIngredient: unknown[];
        recipeInstructions: unknown[];
      };
      expect(body.dateAdded).toMatch(DATE);
      for (const ing of body.recipeIngredient)
        expectKeys(ing, ["quantity", "note", "title", "display", "unit", "food", "referenceId"]);
      for (const step of body.recipeInstructions)
        expectKeys(step, ["id", "title", "text", "ingredientReferences"]);
    }
    const missing = await ha("GET", "api/recipes/no-such-recipe");
    expect(missing.status).toBe(404);
  });

  it("import_recipe posts {url, include_tags} to create/url, takes the JSON string it answers as the slug and reads the recipe", async () => {
    const made = await ha("POST", "api/recipes/create/url", {
      json: { url: `${siteUrl}/stew`, include_tags: true },
    });
    accepted(made);
    expect(typeof made.body).toBe("string");
    const recipe = await ha("GET", `api/recipes/${made.body as string}`);
    accepted(recipe);
    expect((recipe.body as Json).name).toBe("Assistant Stew");
  });

  it("todo list: lists with perPage=-1, items by queryFilter in position order, add, check off, rename, reorder and delete", async () => {
    const admin = await t.login();
    const made = await t.api("/api/households/shopping/lists", {
      method: "POST",
      token: admin,
      json: { name: "Groceries" },
    });
    const listId = ((await made.json()) as { id: string }).id;
    const lists = await ha("GET", "api/households/shopping/lists", { params: { perPage: -1 } });
    accepted(lists);
    const found = (lists.body as { items: Json[] }).items.find((l) => l.id === listId);
    expectKeys(found, ["id", "name"]);

    const items = async () => {
      const r = await ha("GET", "api/households/shopping/items", {
        params: {
          queryFilter: `shoppingListId=${listId}`,
          orderBy: "position",
          orderDirection: "asc",
          perPage: -1,
        },
      });
      accepted(r);
      const all = (r.body as { items: Json[] }).items;
      for (const i of all) {
        expectKeys(i, ["id", "shoppingListId", "note", "display", "checked", "position", "quantity"]);
        expect(Number.isInteger(i.position)).toBe(true);
        expect(typeof i.quantity).toBe("number");
        if (i.food) foodOrUnit(i.food);
        if (i.unit) foodOrUnit(i.unit);
        if (i.label) expectKeys(i.label, ["id", "name"]);
      }
      return all;
    };

    // async_create_todo_item: only shoppingListId, note and position (None values left out).
    for (const [position, note] of ["milk", "bread", "eggs"].entries()) {
      const add = await ha("POST", "api/households/shopping/items", {
        json: { shoppingListId: listId, note, position },
      });
      accepted(add);
    }
    // A food item with a unit, as Mealie's own UI adds it.
    const foods = (await (await t.api("/api/foods?perPage=-1", { token: admin })).json()) as {
      items: Json[];
    };
    const units = (await (await t.api("/api/units?perPage=-1", { token: admin })).json()) as {
      items: Json[];
    };
    if (foods.items.length && units.items.length) {
      const add = await ha("POST", "api/households/shopping/items", {
        json: {
          shoppingListId: listId,
          isFood: true,
          quantity: 2,
          foodId: foods.items[0].id,
          unitId: units.items[0].id,
          position: 3,
        },
      });
      accepted(add);
    }
    let now = await items();
    expect(now.slice(0, 3).map((i) => i.note)).toEqual(["milk", "bread", "eggs"]);

    // async_update_todo_item: the item as read back, checked, Nones left out.
    const milk = now[0];
    const update: Json = {
      id: milk.id,
      shoppingListId: milk.shoppingListId,
      note: milk.note,
      display: milk.display,
      checked: true,
      position: milk.position,
      isFood: milk.isFood,
      disableAmount: milk.disableAmount,
      quantity: milk.quantity,
    };
    for (const k of ["labelId", "foodId", "unitId"]) if (milk[k] != null) update[k] = milk[k];
    accepted(await ha("PUT", `api/households/shopping/items/${milk.id as string}`, { json: update }));
    now = await items();
    expect(now.find((i) => i.id === milk.id)?.checked).toBe(true);

    // A renamed summary: note replaced, isFood false, quantity 0.0.
    const bread = now.find((i) => i.note === "bread")!;
    accepted(
      await ha("PUT", `api/households/shopping/items/${bread.id as string}`, {
        json: {
          id: bread.id,
          shoppingListId: listId,
          note: "rye bread",
          display: bread.display,
          checked: false,
          position: bread.position,
          isFood: false,
          quantity: 0.0,
        },
      }),
    );
    now = await items();
    expect(now.find((i) => i.id === bread.id)?.display).toBe("rye bread");

    // async_move_todo_item: every item PUT again with its new position.
    const order = [now[2], now[0], now[1], ...now.slice(3)];
    for (const [position, i] of order.entries()) {
      const m: Json = {
        shoppingListId: i.shoppingListId,
        id: i.id,
        position,
        isFood: i.isFood,
        quantity: i.quantity,
        note: i.note,
        checked: i.checked,
      };
      if (i.labelId != null) m.labelId = i.labelId;
      if (i.isFood) {
        if (i.foodId != null) m.foodId = i.foodId;
        if (i.unitId != null) m.unitId = i.unitId;
      }
      accepted(await ha("PUT", `api/households/shopping/items/${i.id as string}`, { json: m }));
    }
    now = await items();
    expect(now.map((i) => i.id)).toEqual(order.map((i) => i.id));

    // async_delete_todo_items: one DELETE per uid, each answered with JSON.
    const del = await ha("DELETE", `api/households/shopping/items/${now[0].id as string}`);
    accepted(del);
    expect((await items()).length).toBe(order.length - 1);
  });

  it("newer aiomealie: create a recipe, organizers and foods with perPage=-1, lists by id, recipes added and removed with a scale, favourites and ratings", async () => {
    const made = await ha("POST", "api/recipes", { json: { name: "Assistant Risotto" } });
    accepted(made);
    const slug = made.body as string;
    const recipe = await ha("GET", `api/recipes/${slug}`);
    accepted(recipe);
    baseRecipe(recipe.body);
    const id = (recipe.body as Json).id as string;
    await ha("PATCH", `api/recipes/${slug}`, {
      json: {
        recipeIngredient: [
          { note: "rice", quantity: 2 },
          { note: "stock", quantity: 1 },
        ],
      },
    });

    for (const part of ["api/organizers/categories", "api/organizers/tags", "api/organizers/tools"]) {
      const r = await ha("GET", part, { params: { perPage: -1 } });
      accepted(r);
      for (const o of (r.body as { items: unknown[] }).items) expectKeys(o, ["id", "name", "slug"]);
    }
    for (const part of ["api/foods", "api/units"]) {
      const r = await ha("GET", part, { params: { perPage: -1 } });
      accepted(r);
      (r.body as { items: unknown[] }).items.slice(0, 20).forEach(foodOrUnit);
    }

    const list = await ha("POST", "api/households/shopping/lists", { json: { name: "Assistant list" } });
    accepted(list);
    const listId = (list.body as Json).id as string;
    const one = await ha("GET", `api/households/shopping/lists/${listId}`);
    accepted(one);
    expectKeys(one.body, ["id", "name"]);
    const renamed = await ha("PUT", `api/households/shopping/lists/${listId}`, {
      json: { id: listId, name: "Assistant's list", groupId: (one.body as Json).groupId },
    });
    accepted(renamed);
    expect((renamed.body as Json).name).toBe("Assistant's list");

    const added = await ha("POST", `api/households/shopping/lists/${listId}/recipe/${id}`, {
      json: { recipeIncrementQuantity: 2 },
    });
    accepted(added);
    const refs = (added.body as Json).recipeReferences as Json[];
    expect(refs[0]).toMatchObject({ recipeId: id, recipeQuantity: 2 });
    const removed = await ha("POST", `api/households/shopping/lists/${listId}/recipe/${id}/delete`, {
      json: { recipeDecrementQuantity: 2 },
    });
    accepted(removed);
    expect(((await ha("GET", `api/households/shopping/lists/${listId}`)).body as Json).listItems).toEqual([]);
    accepted(await ha("DELETE", `api/households/shopping/lists/${listId}`));

    const me = ((await ha("GET", "api/users/self")).body as Json).id as string;
    accepted(await ha("POST", `api/users/${me}/favorites/${slug}`));
    accepted(await ha("POST", `api/users/${me}/ratings/${slug}`, { json: { rating: 4.5 } }));
    const favs = await ha("GET", "api/users/self/favorites");
    accepted(favs);
    expect((favs.body as { ratings: Json[] }).ratings).toContainEqual(
      expect.objectContaining({ recipeId: id, rating: 4.5, isFavorite: true }),
    );
    accepted(await ha("DELETE", `api/users/${me}/favorites/${slug}`));
    accepted(await ha("DELETE", `api/recipes/${slug}`));
  });

  it("statistics for the sensors", async () => {
    const r = await ha("GET", "api/households/statistics");
    accepted(r);
    const s = r.body as Json;
    for (const k of ["totalRecipes", "totalUsers", "totalCategories", "totalTags", "totalTools"])
      expect(Number.isInteger(s[k])).toBe(true);
  });
});
