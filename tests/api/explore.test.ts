import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { addMember, newRecipe, secondHousehold, type Member } from "../support/members.js";

let t: TestServer;
let token: string;
let h2: Member;
const r: Record<string, { slug: string; id: string }> = {};

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  h2 = await secondHousehold(t, "Hidden Kitchen");
  const home = t.larder.groups.bySlugOrNull("home")!;
  await home.doc.update((d) => {
    d.preferences.privateGroup = false;
  });
  await home.households.get("family")!.doc.update((d) => {
    d.preferences.privateHousehold = false;
  });
  // h2's household stays private (the default).
  r.open = await newRecipe(t, token, "Open Omelette", {
    settings: { public: true },
    tags: [{ name: "Brunch" }],
    tools: [{ name: "Skillet" }],
    recipeIngredient: [{ quantity: 2, food: { name: "egg" } }],
  });
  r.closed = await newRecipe(t, token, "Closed Casserole", {
    settings: { public: false },
    tags: [{ name: "Secret" }],
  });
  r.hiddenOpen = await newRecipe(t, h2.token, "Hidden Open Hash", { settings: { public: true } });
  r.hiddenClosed = await newRecipe(t, h2.token, "Hidden Closed Hotpot", { settings: { public: false } });
});
afterAll(async () => t?.close());

type Page<T> = { items: T[]; total: number };
const pub = async <T>(path: string) => {
  const res = await t.api(`/api/explore/groups/home${path}`);
  return { status: res.status, body: (await res.json()) as T };
};

describe("explore (public)", () => {
  it("lists only public recipes of non-private households", async () => {
    const { status, body } = await pub<Page<{ id: string }>>("/recipes?perPage=-1");
    expect(status).toBe(200);
    if (hasContract) assertContract("PaginationBase_RecipeSummary_", body);
    expect(body.items.map((x) => x.id)).toEqual([r.open.id]);
  });

  it("lets no user filter widen that: = FALSE, <> TRUE, OR, household privacy, nested parentheses", async () => {
    for (const q of [
      "settings.public = FALSE",
      "settings.public <> TRUE",
      "settings.public = FALSE OR settings.public = TRUE",
      "(settings.public = FALSE) OR (id IS NOT NULL)",
      "household.preferences.privateHousehold = TRUE",
      `id IN ["${r.closed.id}", "${r.hiddenOpen.id}", "${r.hiddenClosed.id}"]`,
      'name LIKE "%" OR name IS NULL',
    ]) {
      const { body } = await pub<Page<{ id: string }>>(
        `/recipes?perPage=-1&queryFilter=${encodeURIComponent(q)}`,
      );
      expect(
        body.items.every((x) => x.id === r.open.id),
        q,
      ).toBe(true);
    }
    const { body } = await pub<Page<{ id: string }>>(
      `/recipes?perPage=-1&search=${encodeURIComponent("Closed Casserole")}`,
    );
    expect(body.items.map((x) => x.id)).not.toContain(r.closed.id);
  });

  it("serves a public recipe by slug or id without its comments; anything else is 404 'recipe not found'", async () => {
    await t.api("/api/comments", {
      method: "POST",
      token,
      json: { recipeId: r.open.id, text: "members only" },
    });
    for (const key of [r.open.slug, r.open.id]) {
      const { status, body } = await pub<{ id: string; comments: unknown[] }>(`/recipes/${key}`);
      expect(status).toBe(200);
      if (hasContract) assertContract("Recipe-Output", body);
      expect(body.comments).toEqual([]);
    }
    for (const key of [r.closed.slug, r.hiddenOpen.slug, r.hiddenClosed.id, "no-such-recipe"]) {
      const { status, body } = await pub<unknown>(`/recipes/${key}`);
      expect(status).toBe(404);
      expect(body).toEqual({ detail: "recipe not found" });
    }
  });

  it("answers 404 'group not found' for every route of a private or unknown group", async () => {
    const other = await t.larder.groups.createGroup("Private Club");
    for (const path of [
      "/recipes",
      `/recipes/${r.open.slug}`,
      "/foods",
      "/households",
      "/cookbooks",
      "/organizers/tags",
      "/recipes/suggestions",
    ]) {
      for (const g of [other.slug, other.doc.data.id, "no-such-group"]) {
        const res = await t.api(`/api/explore/groups/${g}${path}`);
        expect(res.status, `${g}${path}`).toBe(404);
        expect(await res.json()).toEqual({ detail: "group not found" });
      }
    }
  });

  it("lists foods, households (non-private only) and organizers in the contract's shapes", async () => {
    const foods = await pub<Page<{ id: string; name: string }>>("/foods?perPage=-1");
    if (hasContract) assertContract("PaginationBase_IngredientFood_", foods.body);
    const egg = foods.body.items.find((f) => f.name === "egg")!;
    const one = await pub<unknown>(`/foods/${egg.id}`);
    expect(one.status).toBe(200);
    if (hasContract) assertContract("IngredientFood-Output", one.body);
    expect((await pub<unknown>("/foods/3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10")).body).toEqual({
      detail: "food not found",
    });

    const households = await pub<Page<{ slug: string }>>("/households");
    if (hasContract) assertContract("PaginationBase_HouseholdSummary_", households.body);
    expect(households.body.items.map((h) => h.slug)).toEqual(["family"]);
    expect((await pub<unknown>("/households/family")).status).toBe(200);
    expect(await pub<unknown>(`/households/${h2.household.slug}`)).toEqual({
      status: 404,
      body: { detail: "household not found" },
    });

    const tags = await pub<Page<{ id: string; name: string }>>("/organizers/tags?perPage=-1");
    if (hasContract) assertContract("PaginationBase_RecipeTag_", tags.body);
    const brunch = tags.body.items.find((x) => x.name === "Brunch")!;
    const tag = await pub<unknown>(`/organizers/tags/${brunch.id}`);
    if (hasContract) assertContract("TagOut", tag.body);
    const tools = await pub<Page<{ id: string; name: string }>>("/organizers/tools");
    if (hasContract) assertContract("PaginationBase_RecipeTool_", tools.body);
    const skillet = tools.body.items.find((x) => x.name === "Skillet")!;
    const tool = await pub<unknown>(`/organizers/tools/${skillet.id}`);
    if (hasContract) assertContract("RecipeToolOut", tool.body);
    const cats = await pub<unknown>("/organizers/categories");
    if (hasContract) assertContract("PaginationBase_RecipeCategory_", cats.body);
    expect(await pub<unknown>("/organizers/categories/3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10")).toEqual({
      status: 404,
      body: { detail: "category not found" },
    });
  });

  it("lists public cookbooks of non-private households; the detail holds only public recipes", async () => {
    const open = (await (
      await t.api("/api/households/cookbooks", {
        method: "POST",
        token,
        json: { name: "Everything", public: true },
      })
    ).json()) as { id: string; slug: string };
    const closed = (await (
      await t.api("/api/households/cookbooks", {
        method: "POST",
        token,
        json: { name: "Members Only", public: false },
      })
    ).json()) as { id: string };
    const hidden = (await (
      await t.api("/api/households/cookbooks", {
        method: "POST",
        token: h2.token,
        json: { name: "Hidden Book", public: true },
      })
    ).json()) as { id: string };
    const list = await pub<Page<{ id: string }>>("/cookbooks?perPage=-1");
    if (hasContract) assertContract("PaginationBase_ReadCookBook_", list.body);
    expect(list.body.items.map((c) => c.id)).toEqual([open.id]);
    const detail = await pub<{ recipes: { id: string }[] }>(`/cookbooks/${open.slug}`);
    expect(detail.status).toBe(200);
    if (hasContract) assertContract("ReadCookBook", detail.body);
    expect(detail.body.recipes.map((x) => x.id)).toEqual([r.open.id]);
    for (const id of [closed.id, hidden.id])
      expect(await pub<unknown>(`/cookbooks/${id}`)).toEqual({
        status: 404,
        body: { detail: "cookbook not found" },
      });
    const viaList = await pub<Page<{ id: string }>>(`/recipes?cookbook=${open.slug}&perPage=-1`);
    expect(viaList.body.items.map((x) => x.id)).toEqual([r.open.id]);
    expect((await pub<unknown>(`/recipes?cookbook=${closed.id}`)).status).toBe(404);
  });

  it("suggests only public recipes", async () => {
    const egg = t.larder.groups.bySlugOrNull("home")!.foods.data.foods.find((f) => f.name === "egg")!;
    const { status, body } = await pub<{ items: { recipe: { id: string } }[] }>(
      `/recipes/suggestions?foods=${egg.id}`,
    );
    expect(status).toBe(200);
    if (hasContract) assertContract("RecipeSuggestionResponse", body);
    expect(body.items.map((s) => s.recipe.id)).toEqual([r.open.id]);
  });

  it("stops serving a public recipe at once when its owner moves to a private household", async () => {
    const mover = await addMember(t);
    const muffins = await newRecipe(t, mover.token, "Moving Muffins", { settings: { public: true } });
    expect((await pub<unknown>(`/recipes/${muffins.slug}`)).status).toBe(200);
    // No list in between: the recipe's own page must not answer from what it knew before the move.
    await t.larder.users.update(mover.user.id, { householdId: h2.household.doc.data.id });
    const { status, body } = await pub<unknown>(`/recipes/${muffins.slug}`);
    expect(status).toBe(404);
    expect(body).toEqual({ detail: "recipe not found" });
  });
});
