/**
 * `queryFilter` paths through Mealie's relations, as its scripts write them: a user's household and
 * group, a household's group and users, a meal plan's user, household and recipe, a shopping list's
 * owner, a recipe's household. Each list is asked over the API of a real server; an unknown path
 * through a relation is Mealie's 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { newRecipe, secondHousehold, type Member } from "../support/members.js";

let t: TestServer;
let token: string;
let other: Member;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  other = await secondHousehold(t, "Cabin");
});
afterAll(async () => t?.close());

type Page<T> = { items: T[]; total: number };
async function list<T>(path: string, filter: string, tok = token): Promise<Page<T>> {
  const sep = path.includes("?") ? "&" : "?";
  const res = await t.api(`${path}${sep}queryFilter=${encodeURIComponent(filter)}&perPage=-1`, {
    token: tok,
  });
  expect(res.status, `${path} ${filter}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as Page<T>;
}
async function refused(path: string, filter: string): Promise<unknown> {
  const res = await t.api(`${path}?queryFilter=${encodeURIComponent(filter)}`, { token });
  expect(res.status, `${path} ${filter}`).toBe(400);
  return res.json();
}
const names = (p: Page<{ username?: string; name?: string; title?: string }>) =>
  p.items.map((i) => i.username ?? i.name ?? i.title).sort();

describe("queryFilter through relations", () => {
  it("filters users by their household's slug or name and their group's name", async () => {
    const cabin = await list<{ username: string }>("/api/admin/users", "household.slug = cabin");
    expect(names(cabin)).toEqual([other.user.username]);
    const family = await list<{ username: string }>("/api/admin/users", 'household.name = "Family"');
    expect(family.items.map((u) => u.username)).not.toContain(other.user.username);
    expect(family.total).toBeGreaterThan(0);
    const home = await list<{ username: string }>(
      "/api/admin/users",
      "group.name = home AND group.slug = home",
    );
    expect(home.total).toBe(cabin.total + family.total);
    const members = await list<{ username: string }>("/api/groups/members", "household.slug <> family");
    expect(names(members)).toEqual([other.user.username]);
    expect(await refused("/api/admin/users", "household.nope = 1")).toEqual({
      detail: "invalid attribute string: 'household.nope' does not exist on this schema",
    });
  });

  it("filters households by their group and their users, and groups by their households", async () => {
    const inHome = await list<{ name: string }>("/api/groups/households", "group.slug = home");
    expect(names(inHome)).toEqual(["Cabin", "Family"]);
    const withUser = await list<{ name: string }>(
      "/api/admin/households",
      `users.username IN ["${other.user.username}"]`,
    );
    expect(names(withUser)).toEqual(["Cabin"]);
    const groups = await list<{ name: string }>(
      "/api/admin/groups",
      'households.name CONTAINS ALL ["Cabin", "Family"]',
    );
    expect(names(groups)).toEqual(["Home"]);
  });

  it("filters meal plans by their user's name, household and recipe, tags included", async () => {
    const soup = await newRecipe(t, token, "Filter Soup", { tags: [{ name: "Warming" }] });
    const date = new Date().toISOString().slice(0, 10);
    const plan = (json: unknown) => t.api("/api/households/mealplans", { method: "POST", token, json });
    expect((await plan({ date, recipeId: soup.id })).status).toBe(201);
    expect((await plan({ date, title: "Takeaway" })).status).toBe(201);
    const mine = await list<{ title: string; recipe: { name: string } | null }>(
      "/api/households/mealplans",
      "user.username = changeme@example.com OR user.username = admin",
    );
    expect(mine.total).toBe(2);
    const byRecipe = await list<{ recipe: { name: string } | null }>(
      "/api/households/mealplans",
      "recipe.tags.name = warming",
    );
    expect(byRecipe.items.map((e) => e.recipe?.name)).toEqual(["Filter Soup"]);
    const byName = await list(
      "/api/households/mealplans",
      'recipe.name = "filter soup" AND household.slug = family',
    );
    expect(byName.total).toBe(1);
    const titles = await list<{ title: string }>(
      "/api/households/mealplans",
      "recipe.id IS NULL AND user.fullName IS NOT NULL",
    );
    expect(titles.items.map((e) => e.title)).toEqual(["Takeaway"]);
    expect(await refused("/api/households/mealplans", "user.password = x")).toEqual({
      detail: "invalid attribute string: 'user.password' does not exist on this schema",
    });
  });

  it("filters shopping lists by their owner and household", async () => {
    const create = (name: string, tok: string) =>
      t.api("/api/households/shopping/lists", { method: "POST", token: tok, json: { name } });
    expect((await create("Weekly", token)).status).toBe(201);
    const owned = await list<{ name: string }>("/api/households/shopping/lists", "user.username = admin");
    expect(names(owned)).toEqual(["Weekly"]);
    const none = await list("/api/households/shopping/lists", "household.name = Cabin");
    expect(none.total).toBe(0);
  });

  it("filters recipes by their household's name, tags and categories as Mealie's scripts do", async () => {
    await newRecipe(t, other.token, "Cabin Stew", {
      tags: [{ name: "Hearty" }],
      recipeCategory: [{ name: "Main Course" }],
    });
    const cabin = await list<{ name: string }>("/api/recipes", 'household.name = "Cabin"');
    expect(names(cabin)).toEqual(["Cabin Stew"]);
    for (const filter of [
      "tags.name = hearty",
      "recipe_category.slug = main-course",
      `user.username = ${other.user.username}`,
    ])
      expect(names(await list<{ name: string }>("/api/recipes", filter)), filter).toEqual(["Cabin Stew"]);
  });

  it("orders by a path through a relation, and follows a renamed household at once", async () => {
    const res = await t.api("/api/admin/users?orderBy=household.name&orderDirection=asc&perPage=-1", {
      token,
    });
    expect(res.status).toBe(200);
    const ordered = ((await res.json()) as Page<{ username: string }>).items.map((u) => u.username);
    expect(ordered[0]).toBe(other.user.username); // Cabin before Family
    const renamed = await t.api(`/api/admin/households/${other.household.doc.data.id}`, {
      method: "PUT",
      token,
      json: { name: "Lodge" },
    });
    expect(renamed.status).toBe(200);
    expect(names(await list<{ username: string }>("/api/admin/users", 'household.name = "Lodge"'))).toEqual([
      other.user.username,
    ]);
    expect(names(await list<{ name: string }>("/api/recipes", 'household.name = "Lodge"'))).toEqual([
      "Cabin Stew",
    ]);
    expect((await list("/api/recipes", 'household.name = "Cabin"')).total).toBe(0);
  });

  it("filters timeline events by their user's and their recipe's owner's username", async () => {
    const mine = await list<{ subject: string }>("/api/recipes/timeline/events", "user.username = admin");
    expect(mine.total).toBeGreaterThan(0);
    const cabin = await list<{ subject: string; recipeId: string }>(
      "/api/recipes/timeline/events",
      `recipe.user.username = ${other.user.username}`,
    );
    expect(cabin.total).toBeGreaterThan(0);
    const stew = (await (await t.api("/api/recipes/cabin-stew", { token })).json()) as { id: string };
    expect(cabin.items.every((e) => e.recipeId === stew.id)).toBe(true);
  });

  it("gives a member no admin flag to filter by beyond their own household: no finding out who the admins are", async () => {
    for (const [where, path] of [
      ["/api/groups/members", "admin"],
      ["/api/groups/members", "household.users.admin"],
      ["/api/groups/households", "users.admin"],
      ["/api/households/mealplans", "group.users.admin"],
    ] as const) {
      const res = await t.api(`${where}?queryFilter=${encodeURIComponent(`${path} = true`)}`, {
        token: other.token,
      });
      expect(res.status, `${where} ${path}`).toBe(400);
      expect(await res.json()).toEqual({
        detail: `invalid attribute string: '${path}' does not exist on this schema`,
      });
    }
    // Their own household's members carry the flag (Mealie's UserOut), and the admin's list does.
    const own = await list<{ username: string }>("/api/households/members", "admin = false", other.token);
    expect(names(own)).toEqual([other.user.username]);
    const admins = await list<{ username: string; admin: boolean }>("/api/admin/users", "admin = true");
    expect(admins.items.every((u) => u.admin)).toBe(true);
    expect(admins.total).toBeGreaterThan(0);
  });

  it("gives a member no e-mail to filter by beyond their own household, at any depth", async () => {
    const admin = (await (await t.api("/api/users/self", { token })).json()) as { email: string };
    const prefix = JSON.stringify(admin.email.slice(0, 3) + "%");
    const detail = (path: string) => ({
      detail: `invalid attribute string: '${path}' does not exist on this schema`,
    });
    // The Cabin member probes the admin's address, which no answer they can get shows them.
    for (const [where, path] of [
      ["/api/groups/members", "email"],
      ["/api/groups/members", "household.users.email"],
      ["/api/groups/members", "group.users.email"],
      ["/api/groups/households", "users.email"],
      ["/api/households/mealplans", "group.users.email"],
      ["/api/households/mealplans", "user.email"],
      ["/api/households/shopping/lists", "group.households.users.email"],
      ["/api/recipes/timeline/events", "recipe.user.email"],
    ] as const) {
      const res = await t.api(`${where}?queryFilter=${encodeURIComponent(`${path} LIKE ${prefix}`)}`, {
        token: other.token,
      });
      expect(res.status, `${where} ${path}`).toBe(400);
      expect(await res.json()).toEqual(detail(path));
    }
    // Their own household's members are shown with their e-mails, so these may be filtered by it…
    const own = await list<{ username: string }>(
      "/api/households/members",
      `email = ${JSON.stringify(other.user.email)}`,
      other.token,
    );
    expect(names(own)).toEqual([other.user.username]);
    const ownRes = await t.api(
      `/api/households/members?queryFilter=${encodeURIComponent(`group.users.email LIKE ${prefix}`)}`,
      { token: other.token },
    );
    // …but not the group beyond it.
    expect(ownRes.status).toBe(400);
    // An admin's own lists still filter by e-mail.
    const found = await list<{ username: string }>(
      "/api/admin/users",
      `email = ${JSON.stringify(admin.email)}`,
    );
    expect(found.total).toBe(1);
  });
});
