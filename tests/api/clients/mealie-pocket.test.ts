/**
 * Mealie Pocket (togut/Mealie-Swift-App, an iOS app), replayed against Larder as URLSession sends it:
 * a login body written by hand ("username=…&password=…"), a refresh on 401, snake_case paging read
 * back as totalPages, and Swift's UUID encoding, which is UPPER CASE, in the ids it sends back
 * (recipeId of a plan entry, the id of a recipe PUT whole) (decision 0290).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { newRecipe } from "../../support/members.js";
import { FIRST_ADMIN } from "../../../core/larder.js";
import { send, withJson } from "./send.js";

let t: TestServer;
let token: string;
type Json = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function call(method: string, path: string, json?: unknown) {
  return send(t.url + path, withJson({ Authorization: `Bearer ${token}` }, method, json));
}

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

describe("Mealie Pocket (iOS) against Larder", () => {
  it("signs in with a hand-written form body and refreshes its token with GET auth/refresh", async () => {
    const res = await fetch(`${t.url}/api/auth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `username=${FIRST_ADMIN.username}&password=${FIRST_ADMIN.password}`,
    });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { access_token: string }).access_token;
    const refreshed = await call("GET", "/api/auth/refresh");
    expect(refreshed.status).toBe(200);
    expect(typeof (refreshed.body as Json).access_token).toBe("string");
  });

  it("pages through every recipe by total_pages with a seed, and reads a recipe's steps with UUID ids", async () => {
    for (const n of ["One", "Two", "Three"]) await newRecipe(t, token, `Pocket ${n}`);
    const seen: string[] = [];
    let page = 1;
    let totalPages = 1;
    do {
      const r = await call(
        "GET",
        `/api/recipes?page=${page}&perPage=2&orderBy=random&orderDirection=desc&paginationSeed=42`,
      );
      expect(r.status).toBe(200);
      const body = r.body as { items: Json[]; total_pages: number };
      totalPages = body.total_pages;
      for (const i of body.items) {
        expect(i.id).toMatch(UUID);
        seen.push(i.slug as string);
      }
      page++;
    } while (page <= totalPages && totalPages > 0);
    expect(seen.sort()).toEqual(["pocket-one", "pocket-three", "pocket-two"]);

    const r = await newRecipe(t, token, "Pocket Steps", {
      recipeInstructions: [{ text: "Step one." }, { title: "Finish", text: "Step two." }],
    });
    const detail = (await call("GET", `/api/recipes/${r.slug}`)).body as Json;
    for (const s of detail.recipeInstructions as Json[]) {
      expect(s.id).toMatch(UUID);
      expect(typeof s.text).toBe("string");
    }
  });

  it("rates and favourites by user id, and reads both lists back", async () => {
    const r = await newRecipe(t, token, "Pocket Rated");
    const me = ((await call("GET", "/api/users/self")).body as Json).id as string;
    expect((await call("POST", `/api/users/${me}/ratings/${r.slug}`, { rating: 4.5 })).status).toBe(200);
    expect((await call("POST", `/api/users/${me}/favorites/${r.slug}`)).status).toBe(200);
    const ratings = (await call("GET", `/api/users/${me}/ratings`)).body as { ratings: Json[] };
    expect(ratings.ratings).toContainEqual(expect.objectContaining({ recipeId: r.id, rating: 4.5 }));
    const favs = (await call("GET", `/api/users/${me}/favorites`)).body as { ratings: Json[] };
    expect(favs.ratings).toContainEqual(expect.objectContaining({ recipeId: r.id, isFavorite: true }));
    expect((await call("DELETE", `/api/users/${me}/favorites/${r.slug}`)).status).toBe(200);
  });

  it("plans a meal with the recipe id in Swift's upper case, and answers the entry with its id", async () => {
    const r = await newRecipe(t, token, "Pocket Planned");
    const made = await call("POST", "/api/households/mealplans", {
      date: new Date().toISOString().slice(0, 10),
      recipeId: r.id.toUpperCase(),
      entryType: "dinner",
    });
    expect(made.status).toBe(201);
    const entry = made.body as Json;
    expect(Number.isInteger(entry.id)).toBe(true);
    expect(entry.recipeId).toBe(r.id);
    expect((entry.recipe as Json).slug).toBe(r.slug);
  });

  it("saves an edited recipe PUT whole with its id in upper case", async () => {
    const r = await newRecipe(t, token, "Pocket Edited", {
      recipeIngredient: [{ note: "1 lemon" }],
      recipeInstructions: [{ text: "Squeeze." }],
    });
    const read = (await call("GET", `/api/recipes/${r.slug}`)).body as Json;
    const put = await call("PUT", `/api/recipes/${r.slug}`, {
      ...read,
      id: r.id.toUpperCase(),
      description: "Edited on the phone",
    });
    expect(put.status).toBe(200);
    const again = (await call("GET", `/api/recipes/${r.slug}`)).body as Json;
    expect(again.id).toBe(r.id);
    expect(again.description).toBe("Edited on the phone");
  });

  it("ids in Swift's upper case, in a path, find the recipe, food, tag, user and list they name", async () => {
    const r = await newRecipe(t, token, "Pocket Upper");
    const up = (id: string) => id.toUpperCase();
    const byId = await call("GET", `/api/recipes/${up(r.id)}`);
    expect(byId.status).toBe(200);
    expect((byId.body as Json).slug).toBe(r.slug);
    const food = (await call("POST", "/api/foods", { name: "quince" })).body as Json;
    expect(((await call("GET", `/api/foods/${up(food.id as string)}`)).body as Json).name).toBe("quince");
    const tag = (await call("POST", "/api/organizers/tags", { name: "Pocket Tag" })).body as Json;
    expect((await call("GET", `/api/organizers/tags/${up(tag.id as string)}`)).status).toBe(200);
    const me = ((await call("GET", "/api/users/self")).body as Json).id as string;
    expect((await call("POST", `/api/users/${up(me)}/favorites/${r.slug}`)).status).toBe(200);
    const favs = (await call("GET", `/api/users/${up(me)}/favorites`)).body as { ratings: Json[] };
    expect(favs.ratings.map((x) => x.recipeId)).toContain(r.id);
    const list = (await call("POST", "/api/households/shopping/lists", { name: "Pocket list" })).body as Json;
    const added = await call(
      "POST",
      `/api/households/shopping/lists/${up(list.id as string)}/recipe/${up(r.id)}`,
      null,
    );
    expect(added.status).toBe(200);
    expect(((added.body as Json).recipeReferences as Json[])[0]).toMatchObject({ recipeId: r.id });
  });

  it("filters recipes by organizer ids written in upper case, as a Swift UUID prints them", async () => {
    const tag = (await call("POST", "/api/organizers/tags", { name: "Pocket Filter" })).body as Json;
    const cat = (await call("POST", "/api/organizers/categories", { name: "Pocket Cat" })).body as Json;
    const r = await newRecipe(t, token, "Pocket Filtered", { tags: [tag], recipeCategory: [cat] });
    await newRecipe(t, token, "Pocket Unfiltered");
    const q = `tags=${(tag.id as string).toUpperCase()}&categories=${(cat.id as string).toUpperCase()}`;
    const res = await call("GET", `/api/recipes?page=1&perPage=20&${q}&requireAllTags=true`);
    expect((res.body as { items: Json[] }).items.map((i) => i.slug)).toEqual([r.slug]);
  });

  it("the ingredient editor: units page of 500, food search, a food created with a snake_case body", async () => {
    expect((await call("GET", "/api/units?page=1&perPage=500")).status).toBe(200);
    expect((await call("GET", "/api/foods?search=lemon&page=1&perPage=50")).status).toBe(200);
    const food = await call("POST", "/api/foods", { name: "yuzu" });
    expect(food.status).toBe(201);
    expect((food.body as Json).id).toMatch(UUID);
  });
});
