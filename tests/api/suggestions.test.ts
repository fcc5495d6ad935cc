import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe, otherGroup } from "../support/members.js";

let t: TestServer;
let token: string;
const r: Record<string, { slug: string; id: string }> = {};
const food: Record<string, string> = {};
let whiskId = "";

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  const ing = (...names: string[]) => names.map((n) => ({ quantity: 1, food: { name: n } }));
  r.omelette = await newRecipe(t, token, "Plain Omelette", { recipeIngredient: ing("zz egg") });
  r.custard = await newRecipe(t, token, "Custard", { recipeIngredient: ing("zz egg", "zz milk") });
  r.meringue = await newRecipe(t, token, "Meringue", {
    recipeIngredient: ing("zz egg"),
    tools: [{ name: "Balloon Whisk" }],
  });
  r.shortbread = await newRecipe(t, token, "Shortbread", {
    recipeIngredient: ing("zz flour", "zz sugar", "zz butter"),
  });
  r.water = await newRecipe(t, token, "Glass Of Water", { recipeIngredient: [{ note: "water" }] });
  const g = t.larder.groups.bySlugOrNull("home")!;
  for (const f of g.foods.data.foods) if (f.name.startsWith("zz ")) food[f.name.slice(3)] = f.id;
  whiskId = g.organizers.data.tools.find((x) => x.name === "Balloon Whisk")!.id;
});
afterAll(async () => t?.close());

type Res = {
  items: {
    recipe: { id: string };
    missingFoods: { id: string; name: string }[];
    missingTools: { id: string }[];
  }[];
};
const suggest = async (q: string, tok = token) => {
  const res = await t.api(`/api/recipes/suggestions?${q}`, { token: tok });
  expect(res.status).toBe(200);
  return (await res.json()) as Res;
};

describe("recipe suggestions", () => {
  it("ranks recipes by how few foods and tools are missing, leaving out those that use nothing at hand", async () => {
    const res = await suggest(`foods=${food.egg}&includeFoodsOnHand=false&includeToolsOnHand=false`);
    if (hasContract) assertContract("RecipeSuggestionResponse", res);
    const ids = res.items.map((s) => s.recipe.id);
    expect(ids[0]).toBe(r.omelette.id);
    expect(ids.slice(1).sort()).toEqual([r.custard.id, r.meringue.id].sort());
    expect(ids).not.toContain(r.shortbread.id);
    expect(ids).not.toContain(r.water.id);
    const custard = res.items.find((s) => s.recipe.id === r.custard.id)!;
    expect(custard.missingFoods.map((f) => f.name)).toEqual(["zz milk"]);
    expect(res.items.find((s) => s.recipe.id === r.meringue.id)!.missingTools.map((x) => x.id)).toEqual([
      whiskId,
    ]);
  });

  it("honours maxMissingFoods, maxMissingTools and limit", async () => {
    const noFoodsMissing = await suggest(`foods=${food.egg}&maxMissingFoods=0&includeFoodsOnHand=false`);
    expect(noFoodsMissing.items.map((s) => s.recipe.id).sort()).toEqual(
      [r.omelette.id, r.meringue.id].sort(),
    );
    const noToolsMissing = await suggest(`foods=${food.egg}&maxMissingTools=0&includeFoodsOnHand=false`);
    expect(noToolsMissing.items.map((s) => s.recipe.id).sort()).toEqual([r.omelette.id, r.custard.id].sort());
    expect((await suggest(`foods=${food.egg}&limit=1`)).items).toHaveLength(1);
    expect((await t.api("/api/recipes/suggestions?limit=many", { token })).status).toBe(422);
  });

  it("counts the household's foods and tools on hand unless told not to", async () => {
    await t.api(`/api/foods/${food.milk}`, {
      method: "PUT",
      token,
      json: { name: "zz milk", householdsWithIngredientFood: ["family"] },
    });
    await t.api(`/api/organizers/tools/${whiskId}`, {
      method: "PUT",
      token,
      json: { name: "Balloon Whisk", householdsWithTool: ["family"] },
    });
    const withHand = await suggest(`foods=${food.egg}`);
    const top = withHand.items
      .filter((s) => s.missingFoods.length + s.missingTools.length === 0)
      .map((s) => s.recipe.id);
    expect(top.sort()).toEqual([r.omelette.id, r.custard.id, r.meringue.id].sort());
    const without = await suggest(`foods=${food.egg}&includeFoodsOnHand=false&includeToolsOnHand=false`);
    expect(without.items.find((s) => s.recipe.id === r.custard.id)!.missingFoods).toHaveLength(1);
    // On hand alone is enough to be suggested.
    const handOnly = await suggest("");
    expect(handOnly.items.map((s) => s.recipe.id)).toContain(r.custard.id);
  });

  it("applies queryFilter and keeps other groups' recipes out", async () => {
    const filtered = await suggest(
      `foods=${food.egg}&queryFilter=${encodeURIComponent('name LIKE "%Omelette%"')}`,
    );
    expect(filtered.items.map((s) => s.recipe.id)).toEqual([r.omelette.id]);
    const other = await otherGroup(t, "Suggestion Strangers");
    expect((await suggest(`foods=${food.egg}`, other.token)).items).toEqual([]);
  });
});
