import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { newRecipe, otherGroup, secondHousehold } from "../support/members.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

type Cookbook = {
  id: string;
  name: string;
  slug: string;
  position: number;
  queryFilterString: string;
  queryFilter: { parts: { attributeName: string; value: unknown }[] };
  groupId: string;
  householdId: string;
};
const create = (json: unknown, tok = token) =>
  t.api("/api/households/cookbooks", { method: "POST", token: tok, json });

describe("cookbooks", () => {
  it("creates (201) in the ReadCookBook shape, stores it in the household's cookbooks.json, dedupes slugs but keeps names", async () => {
    const res = await create({ name: "Weeknight", queryFilterString: 'tags.name IN ["quick"]' });
    expect(res.status).toBe(201);
    const cb = (await res.json()) as Cookbook;
    if (hasContract) assertContract("ReadCookBook", cb);
    expect(cb).toMatchObject({ name: "Weeknight", slug: "weeknight", position: 1 });
    expect(cb.queryFilter.parts[0]).toMatchObject({
      attributeName: "tags.name",
      relationalOperator: "IN",
      value: ["quick"],
    });
    const again = (await (await create({ name: "Weeknight" })).json()) as Cookbook;
    expect(again).toMatchObject({ name: "Weeknight", slug: "weeknight-1" });
    const stored = JSON.parse(
      await readFile(join(t.dataDir, "groups", "home", "households", "family", "cookbooks.json"), "utf8"),
    ) as { cookbooks: { slug: string }[] };
    expect(stored.cookbooks.map((c) => c.slug).sort()).toEqual(["weeknight", "weeknight-1"]);
    const page = await (
      await t.api("/api/households/cookbooks?perPage=-1&orderBy=position&orderDirection=asc", { token })
    ).json();
    if (hasContract) assertContract("CookBookPagination", page);
  });

  it("gives each of several creates of one name made at once a slug of its own", async () => {
    // Found by tests/security: copies of one POST sent at once could all be answered 201 with the same
    // slug (each picked it before waiting for the household's document), so GET
    // /households/cookbooks/{slug} and GET /recipes?cookbook={slug} named several cookbooks. Started
    // in one tick here, as the copies were when they arrived together.
    const actor = (await t.larder.auth.authenticateToken(token))!;
    const made = await Promise.all(
      Array.from({ length: 4 }, () => t.larder.cookbooks.create(actor, { name: "Rush Hour" })),
    );
    expect(made.map((c) => c.slug).sort()).toEqual([
      "rush-hour",
      "rush-hour-1",
      "rush-hour-2",
      "rush-hour-3",
    ]);
    const page = (await (await t.api("/api/households/cookbooks?perPage=-1", { token })).json()) as {
      items: Cookbook[];
    };
    const slugs = page.items.map((c) => c.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("refuses names without a letter or digit and invalid filters with 422, on create and update", async () => {
    for (const name of ["", " ", "@"]) expect((await create({ name })).status).toBe(422);
    for (const q of [
      'badfield = "badvalue"',
      'recipe_category.id IN ["1"]',
      'created_at >= "not-a-date"',
      "name = (x",
    ]) {
      expect((await create({ name: "Filtered", queryFilterString: q })).status).toBe(422);
    }
    expect(
      (await create({ name: "Both Tags", queryFilterString: 'tags.name CONTAINS ALL ["tag1","tag2"]' }))
        .status,
    ).toBe(201);
    const cb = (await (await create({ name: "To Break" })).json()) as Cookbook;
    expect(
      (
        await t.api(`/api/households/cookbooks/${cb.id}`, {
          method: "PUT",
          token,
          json: { name: "To Break", queryFilterString: "nope = 1" },
        })
      ).status,
    ).toBe(422);
  });

  it("renames (slug follows the name), updates positions in bulk, deletes; then GET by slug is 404", async () => {
    const cb = (await (await create({ name: "Sunday" })).json()) as Cookbook;
    const put = await t.api(`/api/households/cookbooks/${cb.id}`, {
      method: "PUT",
      token,
      json: { name: "brunchbook", position: 3 },
    });
    expect(put.status).toBe(200);
    expect((await put.json()) as Cookbook).toMatchObject({
      name: "brunchbook",
      slug: "brunchbook",
      position: 3,
    });
    const bulk = await t.api("/api/households/cookbooks", {
      method: "PUT",
      token,
      json: [{ ...cb, name: "brunchbook", position: 7 }],
    });
    expect(bulk.status).toBe(200);
    const list = (await bulk.json()) as Cookbook[];
    expect(list[0]).toMatchObject({ id: cb.id, position: 7, slug: "brunchbook" });
    if (hasContract) for (const c of list) assertContract("ReadCookBook", c);
    expect((await t.api("/api/households/cookbooks/brunchbook", { token })).status).toBe(200);
    expect((await t.api(`/api/households/cookbooks/${cb.id}`, { method: "DELETE", token })).status).toBe(200);
    expect((await t.api("/api/households/cookbooks/brunchbook", { token })).status).toBe(404);
  });

  it("lists the matching recipes of every household, and GET /recipes?cookbook= ANDs its filter", async () => {
    const h2 = await secondHousehold(t, "Cookbook Neighbours");
    const quick = await newRecipe(t, token, "Quick Noodles", { tags: [{ name: "Speedy" }] });
    const theirs = await newRecipe(t, h2.token, "Quick Salad", { tags: [{ name: "Speedy" }] });
    await newRecipe(t, token, "Slow Roast", { tags: [{ name: "Slow" }] });
    const tagId = (
      (await (await t.api(`/api/recipes/${quick.slug}`, { token })).json()) as { tags: { id: string }[] }
    ).tags[0].id;
    const cb = (await (
      await create({ name: "Speedy Things", queryFilterString: `tags.id IN ["${tagId}"]` })
    ).json()) as Cookbook;
    const detail = (await (await t.api(`/api/households/cookbooks/${cb.slug}`, { token })).json()) as {
      recipes: { id: string }[];
    };
    expect(detail.recipes.map((r) => r.id).sort()).toEqual([quick.id, theirs.id].sort());
    for (const key of [cb.slug, cb.id]) {
      const listed = (await (await t.api(`/api/recipes?perPage=-1&cookbook=${key}`, { token })).json()) as {
        items: { id: string }[];
      };
      expect(listed.items.map((r) => r.id).sort()).toEqual([quick.id, theirs.id].sort());
    }
    // The organizer params are ignored with a cookbook; a user filter still narrows it.
    const narrowed = (await (
      await t.api(
        `/api/recipes?cookbook=${cb.slug}&queryFilter=${encodeURIComponent(`householdId="${h2.household.doc.data.id}"`)}`,
        { token },
      )
    ).json()) as { items: { id: string }[] };
    expect(narrowed.items.map((r) => r.id)).toEqual([theirs.id]);
    const missing = await t.api("/api/recipes?cookbook=no-such-cookbook", { token });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "cookbook not found" });
  });

  it("keeps other households and groups out of every {id} route (404, never data)", async () => {
    const cb = (await (await create({ name: "Family Secrets" })).json()) as Cookbook;
    const h2 = await secondHousehold(t, "Cookbook Outsiders");
    const other = await otherGroup(t, "Cookbook Strangers");
    for (const tok of [h2.token, other.token]) {
      expect((await t.api(`/api/households/cookbooks/${cb.id}`, { token: tok })).status).toBe(404);
      expect((await t.api(`/api/households/cookbooks/${cb.slug}`, { token: tok })).status).toBe(404);
      expect(
        (
          await t.api(`/api/households/cookbooks/${cb.id}`, {
            method: "PUT",
            token: tok,
            json: { name: "Stolen" },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await t.api("/api/households/cookbooks", {
            method: "PUT",
            token: tok,
            json: [{ ...cb, name: "Stolen" }],
          })
        ).status,
      ).toBe(404);
      expect(
        (await t.api(`/api/households/cookbooks/${cb.id}`, { method: "DELETE", token: tok })).status,
      ).toBe(404);
      const list = (await (await t.api("/api/households/cookbooks?perPage=-1", { token: tok })).json()) as {
        items: Cookbook[];
      };
      expect(list.items.some((c) => c.id === cb.id)).toBe(false);
    }
    expect((await t.api(`/api/recipes?cookbook=${cb.id}`, { token: other.token })).status).toBe(404);
    expect(
      ((await (await t.api(`/api/households/cookbooks/${cb.id}`, { token })).json()) as Cookbook).name,
    ).toBe("Family Secrets");
  });
});
