/**
 * Mealient (kirmanak/Mealient, the Android app), replayed against Larder as its Ktor client sends
 * each call: a form login, a long-lived token made with the login token, camelCase and snake_case
 * bodies (its shopping-item create is snake_case), the slug answered as a bare JSON string, and a
 * shopping item read as raw JSON, edited and PUT back whole (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../../support/server.js";
import { assertContract, hasContract } from "../../support/contract.js";
import { FIRST_ADMIN } from "../../../core/larder.js";
import { send, withJson } from "./send.js";

let t: TestServer;
let token: string;
let site: Server;
let siteUrl: string;
type Json = Record<string, unknown>;

/** One Ktor call: base URL + path, Bearer token, JSON body when given; the answer parsed. */
async function call(method: string, path: string, json?: unknown, bearer = token) {
  const headers = { Accept: "application/json", Authorization: `Bearer ${bearer}` };
  return send(t.url + path, withJson(headers, method, json));
}

beforeAll(async () => {
  site = createServer((_req, res) => {
    const ld = {
      "@context": "https://schema.org",
      "@type": "Recipe",
      name: "Phone Pancakes",
      recipeIngredient: ["1 cup flour", "1 egg"],
      recipeInstructions: [{ "@type": "HowToStep", text: "Fry." }],
    };
    res
      .writeHead(200, { "Content-Type": "text/html" })
      .end(`<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head></html>`);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  t = await startTestServer({ fetchAllow: "127.0.0.1" });
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => site?.close(r));
});

describe("Mealient against Larder", () => {
  it("signs in with a form post, then makes its API token with the login token", async () => {
    const form = new URLSearchParams();
    form.append("username", FIRST_ADMIN.username);
    form.append("password", FIRST_ADMIN.password);
    const res = await fetch(`${t.url}/api/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    const login = ((await res.json()) as { access_token: string }).access_token;
    expect(typeof login).toBe("string");
    // A wrong password: Mealient tells "Unauthorized" from other failures by the detail text.
    const wrong = await fetch(`${t.url}/api/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" },
      body: new URLSearchParams({ username: FIRST_ADMIN.username, password: "not-it" }).toString(),
    });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { detail: unknown }).detail).toBe("Unauthorized");
    const made = await call("POST", "/api/users/api-tokens", { name: "Mealient" }, login);
    expect(made.status).toBe(201);
    token = (made.body as { token: string }).token;
    expect(typeof token).toBe("string");
    const about = await call("GET", "/api/app/about");
    expect(about.body).toMatchObject({ production: expect.any(Boolean), demoStatus: expect.any(Boolean) });
    expect(typeof (about.body as Json).version).toBe("string");
    const self = await call("GET", "/api/users/self");
    expect(typeof (self.body as Json).id).toBe("string");
  });

  it("creates a recipe (slug as a JSON string), PATCHes its edit form in, lists and reads it", async () => {
    const created = await call("POST", "/api/recipes", { name: "Phone Soup" });
    expect(created.status).toBe(201);
    const slug = created.body as string;
    expect(typeof slug).toBe("string");
    const patched = await call("PATCH", `/api/recipes/${slug}`, {
      description: "From the phone",
      recipeYield: "4 servings",
      recipeIngredient: [
        { referenceId: "2a9d1c8e-0a33-4d5c-9a4e-0f7d5c3b8e11", note: "2 leeks" },
        { referenceId: "5b1e6f42-7c9d-4e11-8f3a-2d6c4b9a7e22", note: "1 potato" },
      ],
      recipeInstructions: [
        {
          id: "9c3f2a1b-4d5e-4f60-8a7b-1c2d3e4f5a66",
          text: "Chop and simmer.",
          ingredientReferences: [],
        },
      ],
      settings: { disableComments: false, public: true },
    });
    expect(patched.status).toBe(200);
    const r = patched.body as Json;
    expect(r.description).toBe("From the phone");
    expect(r.settings).toMatchObject({ public: true, disableComments: false, locked: false });
    const ings = r.recipeIngredient as Json[];
    expect(ings.map((i) => i.note)).toEqual(["2 leeks", "1 potato"]);
    for (const i of ings) {
      expect(typeof i.referenceId).toBe("string");
      expect(typeof i.display).toBe("string");
      for (const k of ["unit", "food", "quantity", "title"]) expect(i).toHaveProperty(k);
    }
    expect((r.recipeInstructions as Json[])[0]).toMatchObject({ text: "Chop and simmer." });
    expect(typeof (r.recipeInstructions as Json[])[0].id).toBe("string");

    const page = await call("GET", "/api/recipes?page=1&perPage=150");
    const item = (page.body as { items: Json[] }).items.find((i) => i.slug === slug)!;
    expect(item.dateAdded).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(item.dateUpdated as string))).toBe(false);
    expect(item).toHaveProperty("rating");
    const one = await call("GET", `/api/recipes/${slug}`);
    expect((one.body as Json).id).toBe(item.id);
  });

  it("imports by URL with {url, includeTags} and gets the slug back as a JSON string", async () => {
    const made = await call("POST", "/api/recipes/create/url", { url: `${siteUrl}/p`, includeTags: false });
    expect(made.status).toBe(201);
    expect(typeof made.body).toBe("string");
    expect(((await call("GET", `/api/recipes/${made.body as string}`)).body as Json).name).toBe(
      "Phone Pancakes",
    );
  });

  it("favourites a recipe by user id and slug, and deletes a recipe", async () => {
    const slug = (await call("POST", "/api/recipes", { name: "Fav Cake" })).body as string;
    const userId = ((await call("GET", "/api/users/self")).body as Json).id as string;
    const fav = await call("POST", `/api/users/${userId}/favorites/${slug}`);
    expect(fav.status).toBe(200);
    const favs = await call("GET", "/api/users/self/favorites");
    const recipeId = ((await call("GET", `/api/recipes/${slug}`)).body as Json).id;
    expect((favs.body as { ratings: Json[] }).ratings).toContainEqual(
      expect.objectContaining({ recipeId, isFavorite: true }),
    );
    const unfav = await call("DELETE", `/api/users/${userId}/favorites/${slug}`);
    expect(unfav.status).toBe(200);
    const del = await call("DELETE", `/api/recipes/${slug}`);
    expect(del.status).toBe(200);
    expect((await call("GET", `/api/recipes/${slug}`)).status).toBe(404);
  });

  it("shopping: lists page with snake_case paging keys, a snake_case item create, a raw item PUT back checked, delete", async () => {
    const list = (await call("POST", "/api/households/shopping/lists", { name: "Phone list" })).body as Json;
    const lists = await call("GET", "/api/households/shopping/lists?page=1&perPage=-1");
    expect(lists.body).toMatchObject({
      page: expect.any(Number),
      per_page: expect.any(Number),
      total: expect.any(Number),
      total_pages: expect.any(Number),
    });
    const foods = (await call("GET", "/api/foods?perPage=-1")).body as { items: Json[] };
    const units = (await call("GET", "/api/units?perPage=-1")).body as { items: Json[] };
    for (const f of [...foods.items, ...units.items]) {
      expect(typeof f.id).toBe("string");
      expect(typeof f.name).toBe("string");
    }
    const created = await call("POST", "/api/households/shopping/items", {
      shopping_list_id: list.id,
      checked: false,
      position: null,
      is_food: true,
      note: "",
      quantity: 3,
      food_id: foods.items[0]?.id ?? null,
      unit_id: units.items[0]?.id ?? null,
    });
    expect(created.status).toBe(201);
    const plain = await call("POST", "/api/households/shopping/items", {
      shopping_list_id: list.id,
      checked: false,
      position: null,
      is_food: false,
      note: "batteries",
      quantity: 1,
      food_id: null,
      unit_id: null,
    });
    expect(plain.status).toBe(201);

    const full = (await call("GET", `/api/households/shopping/lists/${list.id as string}`)).body as Json;
    if (hasContract) assertContract("ShoppingListOut", full);
    const items = full.listItems as Json[];
    expect(items.length).toBe(2);
    const food = items.find((i) => i.foodId != null);
    if (foods.items.length) expect(food?.quantity).toBe(3);
    for (const i of items) {
      expect(i.shoppingListId).toBe(list.id);
      expect(typeof i.position).toBe("number");
    }

    // updateShoppingListItem: the item read as raw JSON, its edited fields put in (null ids as JSON
    // null), the unit and food objects removed, and the rest PUT back as it came.
    const raw = (await call("GET", `/api/households/shopping/items/${items[1].id as string}`)).body as Json;
    const edited: Json = {
      ...raw,
      checked: true,
      isFood: false,
      note: raw.note,
      quantity: raw.quantity,
      foodId: null,
      unitId: null,
    };
    delete edited.unit;
    delete edited.food;
    const put = await call("PUT", `/api/households/shopping/items/${items[1].id as string}`, edited);
    expect(put.status).toBe(200);
    const again = (await call("GET", `/api/households/shopping/items/${items[1].id as string}`)).body as Json;
    expect(again.checked).toBe(true);
    expect(again.note).toBe(raw.note);

    const del = await call("DELETE", `/api/households/shopping/items/${items[0].id as string}`);
    expect(del.status).toBe(200);
    expect((await call("GET", `/api/households/shopping/items/${items[0].id as string}`)).status).toBe(404);
  });
});
