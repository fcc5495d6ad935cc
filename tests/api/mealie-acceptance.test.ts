/**
 * Behaviours Mealie's own test suite asserts for the recipe routes (mealie-api-notes §14.1, items 16–29
 * and 36), run against Larder, so that Mealie clients and scripts see the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { addMember, newRecipe, otherGroup, secondHousehold } from "../support/members.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

// Response bodies as these ports of Mealie's assertions read them: any field, at any depth. The
// contract tests check the shapes; here the assertions say what each case needs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type R = Record<string, any>;
const get = async (path: string, tok = token) => (await t.api(path, { token: tok })).json() as Promise<R>;

describe("Mealie's recipe assertions (§14.1)", () => {
  it("17: PUT, GET, DELETE and PATCH on a missing recipe answer 404", async () => {
    for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
      const res = await t.api("/api/recipes/test-missing", {
        method,
        token,
        ...(method === "PUT" || method === "PATCH" ? { json: { name: "x" } } : {}),
      });
      expect(res.status, method).toBe(404);
    }
  });

  it("18–19: PUT renames (slug follows), replaces notes, and empties ingredients and steps", async () => {
    const { slug } = await newRecipe(t, token, "Rename Me");
    const r = await get(`/api/recipes/${slug}`);
    const put = (await (
      await t.api(`/api/recipes/${slug}`, {
        method: "PUT",
        token,
        json: {
          ...r,
          name: "Rename Me-rename",
          notes: [
            { title: "A", text: "one" },
            { title: "B", text: "two" },
          ],
        },
      })
    ).json()) as R;
    expect(put.slug).toBe("rename-me-rename");
    expect((await get(`/api/recipes/${put.slug}`)).notes).toEqual([
      { title: "A", text: "one" },
      { title: "B", text: "two" },
    ]);
    const cleared = (await (
      await t.api(`/api/recipes/${put.slug}`, {
        method: "PUT",
        token,
        json: { ...put, notes: [], recipeIngredient: [], recipeInstructions: [] },
      })
    ).json()) as R;
    const again = await get(`/api/recipes/${cleared.slug}`);
    expect(again.notes).toEqual([]);
    expect(again.recipeIngredient).toEqual([]);
    expect(again.recipeInstructions).toEqual([]);
  });

  it("20: PUT /recipes with a list renames each, and the new slugs answer", async () => {
    const made = await Promise.all(["Bulk A", "Bulk B", "Bulk C"].map((n) => newRecipe(t, token, n)));
    const full = await Promise.all(made.map((m) => get(`/api/recipes/${m.slug}`)));
    const res = await t.api("/api/recipes", {
      method: "PUT",
      token,
      json: full.map((r, i) => ({ ...r, name: `Renamed Bulk ${i}` })),
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as R[];
    out.forEach((r, i) => expect(r.slug).toBe(`renamed-bulk-${i}`));
    for (const r of out) expect((await t.api(`/api/recipes/${r.slug}`, { token })).status).toBe(200);
  });

  it("22: random order is stable per seed and differs between seeds", async () => {
    for (let i = 0; i < 8; i++) await newRecipe(t, token, `Shuffle ${i}`);
    const first = async (seed: string) =>
      ((await get(`/api/recipes?page=1&perPage=-1&orderBy=random&paginationSeed=${seed}`)).items as R[])
        .map((x) => x.slug)
        .join(",");
    expect(await first("abcdefg")).toBe(await first("abcdefg"));
    expect(await first("abcdefg")).not.toBe(await first("gfedcba"));
  });

  it("23: ?tags=, ?categories= and ?tools= return exactly the recipes carrying that organizer", async () => {
    await newRecipe(t, token, "Tagged One", {
      tags: [{ name: "Acceptance Tag" }],
      recipeCategory: [{ name: "Acceptance Cat" }],
      tools: [{ name: "Acceptance Pan" }],
    });
    await newRecipe(t, token, "Untagged One");
    const tag = ((await get("/api/organizers/tags?perPage=-1")).items as R[]).find(
      (x) => x.name === "Acceptance Tag",
    )!;
    const cat = ((await get("/api/organizers/categories?perPage=-1")).items as R[]).find(
      (x) => x.name === "Acceptance Cat",
    )!;
    const tool = ((await get("/api/organizers/tools?perPage=-1")).items as R[]).find(
      (x) => x.name === "Acceptance Pan",
    )!;
    for (const q of [`tags=${tag.id}`, `categories=${cat.id}`, `tools=${tool.id}`, `tags=${tag.slug}`]) {
      const names = ((await get(`/api/recipes?perPage=-1&${q}`)).items as R[]).map((x) => x.name);
      expect(names, q).toEqual(["Tagged One"]);
    }
  });

  it("25–26: queryFilter on user.id returns only that user's recipes; another group's recipes are never listed or readable", async () => {
    const member = await addMember(t);
    const mine = await newRecipe(t, member.token, "Member Pie");
    const byUser = (
      (await get(`/api/recipes?perPage=-1&queryFilter=${encodeURIComponent(`user.id="${member.user.id}"`)}`))
        .items as R[]
    ).map((x) => x.slug);
    expect(byUser).toEqual([mine.slug]);
    const stranger = await otherGroup(t, "Acceptance Others");
    for (let i = 0; i < 5; i++) await newRecipe(t, stranger.token, `Stranger ${i}`);
    const theirs = (await get("/api/recipes?perPage=-1", stranger.token)).items as R[];
    expect(theirs).toHaveLength(5);
    expect(theirs.every((x) => x.groupId === stranger.group.doc.data.id)).toBe(true);
    expect((await t.api(`/api/recipes/${mine.id}`, { token: stranger.token })).status).toBe(404);
    const created = await get(`/api/recipes/${mine.slug}`, member.token);
    expect(created.userId).toBe(member.user.id);
  });

  it("27: a locked recipe cannot be changed by another member, nor unlocked by them", async () => {
    const owner = await addMember(t);
    const other = await addMember(t);
    const { slug } = await newRecipe(t, owner.token, "Locked Stew");
    const r = await get(`/api/recipes/${slug}`, owner.token);
    expect(
      (
        await t.api(`/api/recipes/${slug}`, {
          method: "PUT",
          token: owner.token,
          json: { ...r, settings: { ...r.settings, locked: true } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.api(`/api/recipes/${slug}`, {
          method: "PATCH",
          token: other.token,
          json: { description: "mine now" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.api(`/api/recipes/${slug}`, {
          method: "PATCH",
          token: other.token,
          json: { settings: { locked: false } },
        })
      ).status,
    ).toBe(403);
  });

  it("28: PATCH last-made works for any group member and shows on GET", async () => {
    const { slug } = await newRecipe(t, token, "Made Often");
    const other = await addMember(t);
    const ts = "2026-01-02T03:04:05Z";
    expect(
      (
        await t.api(`/api/recipes/${slug}/last-made`, {
          method: "PATCH",
          token: other.token,
          json: { timestamp: ts },
        })
      ).status,
    ).toBe(200);
    expect(new Date((await get(`/api/recipes/${slug}`)).lastMade).toISOString()).toBe(
      new Date(ts).toISOString(),
    );
  });

  it("29: other households' recipes are listed and readable, filterable by household, and locked for edits", async () => {
    const h2 = await secondHousehold(t, "Acceptance Second");
    const { slug, id } = await newRecipe(t, h2.token, "Second Household Soup");
    const listed = ((await get("/api/recipes?perPage=-1")).items as R[]).map((x) => x.slug);
    expect(listed).toContain(slug);
    const only = (
      (await get(`/api/recipes?perPage=-1&households=${h2.household.doc.data.id}`)).items as R[]
    ).map((x) => x.slug);
    expect(only).toEqual([slug]);
    expect((await t.api(`/api/recipes/${id}`, { token })).status).toBe(200);
    // New households lock recipe edits from other households by default.
    expect(
      (await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { description: "x" } })).status,
    ).toBe(403);
  });

  it("36: step ingredient references survive a PUT and come back on GET", async () => {
    const { slug } = await newRecipe(t, token, "Referenced Steps", {
      recipeIngredient: [{ note: "first thing" }, { note: "second thing" }],
    });
    const r = await get(`/api/recipes/${slug}`);
    const refs = [{ referenceId: r.recipeIngredient[1].referenceId }];
    const put = (await (
      await t.api(`/api/recipes/${slug}`, {
        method: "PUT",
        token,
        json: { ...r, recipeInstructions: [{ text: "Use the second.", ingredientReferences: refs }] },
      })
    ).json()) as R;
    expect(put.recipeInstructions[0].ingredientReferences).toEqual(refs);
    expect((await get(`/api/recipes/${slug}`)).recipeInstructions[0].ingredientReferences).toEqual(refs);
  });
});
