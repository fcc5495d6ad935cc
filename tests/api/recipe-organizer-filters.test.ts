/**
 * The recipe list's organizer filters (mealie-api-notes §4.6, §14.1 items 23 and 29) as a client sends
 * them: by id or slug (foods by id or name), any listed value unless `requireAll…`, kinds ANDed, the
 * household by id or slug, and 422 for a boolean that is none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { newRecipe, secondHousehold } from "../support/members.js";

let t: TestServer;
let token: string;
const ids: Record<string, string> = {};
let household: { id: string; slug: string };

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  const food = (name: string) => ({ quantity: 1, unit: null, food: { name }, note: "", display: name });
  await newRecipe(t, token, "A", {
    tags: [{ name: "Quick" }, { name: "Dinner" }],
    recipeCategory: [{ name: "Main" }],
    recipeIngredient: [food("quinoa")],
  });
  await newRecipe(t, token, "B", {
    tags: [{ name: "Quick" }],
    tools: [{ name: "Wok" }],
    recipeIngredient: [food("quinoa"), food("egg")],
  });
  const other = await secondHousehold(t, "Over The Road");
  await newRecipe(t, other.token, "C", { tags: [{ name: "Dinner" }] });
  household = { id: other.household.doc.data.id, slug: other.household.slug };
  const items = async (path: string) =>
    ((await (await t.api(path, { token })).json()) as { items: { id: string; name: string }[] }).items;
  for (const kind of ["tags", "categories", "tools"])
    for (const o of await items(`/api/organizers/${kind}?perPage=-1`)) ids[o.name] = o.id;
  for (const f of await items("/api/foods?perPage=-1")) ids[f.name] = f.id;
});
afterAll(async () => t?.close());

async function names(query: string): Promise<string[]> {
  const res = await t.api(`/api/recipes?perPage=-1&orderBy=name&orderDirection=asc&${query}`, { token });
  expect(res.status, query).toBe(200);
  return ((await res.json()) as { items: { name: string }[] }).items.map((r) => r.name);
}

describe("the recipe list's organizer filters", () => {
  it("returns exactly the recipes carrying an organizer, by id or slug", async () => {
    expect(await names(`tags=${ids.Dinner}`)).toEqual(["A", "C"]);
    expect(await names("tags=dinner")).toEqual(["A", "C"]);
    expect(await names(`categories=${ids.Main}`)).toEqual(["A"]);
    expect(await names("tools=wok")).toEqual(["B"]);
  });

  it("matches any listed value unless requireAll is set", async () => {
    expect(await names("tags=quick&tags=dinner")).toEqual(["A", "B", "C"]);
    expect(await names("tags=quick&tags=dinner&requireAllTags=true")).toEqual(["A"]);
  });

  it("matches foods by id or name, and ANDs different kinds", async () => {
    expect(await names(`foods=${ids.egg}&foods=${ids.quinoa}&requireAllFoods=yes`)).toEqual(["B"]);
    expect(await names("foods=quinoa")).toEqual(["A", "B"]);
    expect(await names("foods=quinoa&tags=dinner")).toEqual(["A"]);
  });

  it("filters by household id or slug", async () => {
    expect(await names(`households=${household.id}`)).toEqual(["C"]);
    expect(await names(`households=${household.slug}`)).toEqual(["C"]);
  });

  it("answers 422 in Mealie's shape for a boolean that is none", async () => {
    const res = await t.api("/api/recipes?requireAllTags=maybe", { token });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("requireAllTags");
  });
});
