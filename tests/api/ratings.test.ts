import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";
import { addMember, newRecipe, otherGroup, secondHousehold, type Member } from "../support/members.js";

let t: TestServer;
let token: string;
let adminId: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
  adminId = ((await (await t.api("/api/users/self", { token })).json()) as { id: string }).id;
});
afterAll(async () => t?.close());

const rate = (tok: string, userId: string, slug: string, json: unknown) =>
  t.api(`/api/users/${userId}/ratings/${slug}`, { method: "POST", token: tok, json });
const recipeOf = async (slug: string) =>
  (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { rating: number | null; id: string };

describe("ratings and favourites", () => {
  let b: Member;
  beforeAll(async () => {
    b = await addMember(t);
  });

  it("averages the users' ratings into the recipe's read-only rating (3.5 from 5 and 2)", async () => {
    const { slug } = await newRecipe(t, token, "Average Stew");
    expect((await recipeOf(slug)).rating).toBeNull();
    expect((await rate(token, adminId, slug, { rating: 5 })).status).toBe(200);
    expect((await rate(b.token, b.user.id, slug, { rating: 2 })).status).toBe(200);
    expect((await recipeOf(slug)).rating).toBe(3.5);
    const listed = (await (
      await t.api(`/api/recipes?queryFilter=${encodeURIComponent(`slug="${slug}"`)}`, { token })
    ).json()) as { items: { rating: number }[] };
    expect(listed.items[0].rating).toBe(3.5);
    // PATCH {rating} is ignored: the value is derived.
    const patched = (await (
      await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: { rating: 4.2 } })
    ).json()) as { rating: number };
    expect(patched.rating).toBe(3.5);
    // A rating of 0 is stored but does not count toward the average.
    await rate(b.token, b.user.id, slug, { rating: 0 });
    expect((await recipeOf(slug)).rating).toBe(5);
    const stored = JSON.parse(await readFile(join(t.dataDir, "groups", "home", "ratings.json"), "utf8")) as {
      ratings: { rating: number; userId: string }[];
    };
    expect(stored.ratings.find((r) => r.userId === b.user.id)?.rating).toBe(0);
  });

  it("round-trips {rating, isFavorite} and keeps what an update omits", async () => {
    const { slug, id } = await newRecipe(t, token, "Round Trip Pie");
    await rate(token, adminId, slug, { rating: 4, isFavorite: true });
    let mine = await t.api(`/api/users/self/ratings/${id}`, { token });
    expect(mine.status).toBe(200);
    const body = await mine.json();
    if (hasContract) assertContract("UserRatingSummary", body);
    expect(body).toEqual({ recipeId: id, rating: 4, isFavorite: true });
    await rate(token, adminId, slug, { rating: 2 });
    mine = await t.api(`/api/users/self/ratings/${id}`, { token });
    expect(await mine.json()).toEqual({ recipeId: id, rating: 2, isFavorite: true });
    await rate(token, adminId, slug, { isFavorite: false });
    mine = await t.api(`/api/users/self/ratings/${id}`, { token });
    expect(await mine.json()).toEqual({ recipeId: id, rating: 2, isFavorite: false });
  });

  it("answers 404 'User has not rated this recipe' for an unrated recipe", async () => {
    const { id } = await newRecipe(t, token, "Unrated Soup");
    const res = await t.api(`/api/users/self/ratings/${id}`, { token });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      detail: { message: "User has not rated this recipe", error: true, exception: null },
    });
  });

  it("lists ratings and favourites in the contract's shapes; favourites count N then N-k", async () => {
    const slugs: string[] = [];
    for (const name of ["Fav One", "Fav Two", "Fav Three"])
      slugs.push((await newRecipe(t, b.token, name)).slug);
    for (const s of slugs)
      expect(
        (await t.api(`/api/users/${b.user.id}/favorites/${s}`, { method: "POST", token: b.token })).status,
      ).toBe(200);
    let favs = (await (await t.api("/api/users/self/favorites", { token: b.token })).json()) as {
      ratings: { recipeId: string; isFavorite: boolean }[];
    };
    if (hasContract) assertContract("UserRatings_UserRatingSummary_", favs);
    expect(favs.ratings.filter((r) => r.isFavorite)).toHaveLength(3);
    await t.api(`/api/users/${b.user.id}/favorites/${slugs[0]}`, { method: "DELETE", token: b.token });
    favs = (await (await t.api("/api/users/self/favorites", { token: b.token })).json()) as typeof favs;
    expect(favs.ratings).toHaveLength(2);
    const theirs = await (await t.api(`/api/users/${b.user.id}/favorites`, { token })).json();
    if (hasContract) assertContract("UserRatings_UserRatingOut_", theirs);
    expect((theirs as { ratings: unknown[] }).ratings).toHaveLength(2);
    const all = await (await t.api(`/api/users/${b.user.id}/ratings`, { token })).json();
    if (hasContract) assertContract("UserRatings_UserRatingOut_", all);
    const self = await (await t.api("/api/users/self/ratings", { token: b.token })).json();
    if (hasContract) assertContract("UserRatings_UserRatingSummary_", self);
  });

  it("refuses to write another user's ratings (403) unless the caller is an admin (GHSA-5pvv-vjm6-v952)", async () => {
    const { slug, id } = await newRecipe(t, token, "Not Yours");
    for (const res of [
      await rate(b.token, adminId, slug, { rating: 1 }),
      await t.api(`/api/users/${adminId}/favorites/${slug}`, { method: "POST", token: b.token }),
      await t.api(`/api/users/${adminId}/favorites/${slug}`, { method: "DELETE", token: b.token }),
    ]) {
      expect(res.status).toBe(403);
    }
    expect((await t.api(`/api/users/self/ratings/${id}`, { token })).status).toBe(404);
    // The admin may set a member's rating.
    expect((await rate(token, b.user.id, slug, { rating: 3 })).status).toBe(200);
    const theirs = (await (await t.api(`/api/users/self/ratings/${id}`, { token: b.token })).json()) as {
      rating: number;
    };
    expect(theirs.rating).toBe(3);
  });

  it("404s an unknown slug, and forgets ratings of a recipe deleted through the API", async () => {
    expect((await rate(token, adminId, "no-such-recipe", { rating: 3 })).status).toBe(404);
    const { slug: some } = await newRecipe(t, token, "Out Of Range");
    expect((await rate(token, adminId, some, { rating: 7 })).status).toBe(422);
    expect((await rate(token, adminId, some, { rating: "4.5" })).status).toBe(200);
    expect(
      (await t.api(`/api/users/${adminId}/favorites/no-such-recipe`, { method: "POST", token })).status,
    ).toBe(404);
    const { slug, id } = await newRecipe(t, token, "Short Lived");
    await rate(token, adminId, slug, { rating: 5, isFavorite: true });
    expect((await t.api(`/api/recipes/${slug}`, { method: "DELETE", token })).status).toBe(200);
    const mine = (await (await t.api("/api/users/self/ratings", { token })).json()) as {
      ratings: { recipeId: string }[];
    };
    expect(mine.ratings.map((r) => r.recipeId)).not.toContain(id);
    await t.larder.ratings.idle();
    const stored = await readFile(join(t.dataDir, "groups", "home", "ratings.json"), "utf8");
    expect(stored).not.toContain(id);
  });

  it("keeps every recipe's average equal to its stored ratings through a run of changes and a deletion", async () => {
    const recipes = await Promise.all(["Run One", "Run Two", "Run Three"].map((n) => newRecipe(t, token, n)));
    const raters = [
      { tok: token, id: adminId },
      { tok: b.token, id: b.user.id },
    ];
    const checkAverages = async () => {
      await t.larder.ratings.idle();
      const stored = JSON.parse(
        await readFile(join(t.dataDir, "groups", "home", "ratings.json"), "utf8"),
      ) as {
        ratings: { recipeId: string; rating: number | null }[];
      };
      for (const r of recipes) {
        if (r.slug === gone) continue;
        const counted = stored.ratings.filter((x) => x.recipeId === r.id && (x.rating ?? 0) > 0);
        const expected = counted.length
          ? Math.round((counted.reduce((a, x) => a + x.rating!, 0) / counted.length) * 1000) / 1000
          : null;
        expect((await recipeOf(r.slug)).rating).toBe(expected);
      }
    };
    let gone = "";
    for (let step = 0; step < 24; step++) {
      const r = recipes[(step * 7) % recipes.length];
      const who = raters[step % 2];
      expect((await rate(who.tok, who.id, r.slug, { rating: (step * 3) % 6 })).status).toBe(200);
      if (step % 4 === 3) await checkAverages();
      if (step === 15) {
        gone = recipes[2].slug;
        expect((await t.api(`/api/recipes/${gone}`, { method: "DELETE", token })).status).toBe(200);
        recipes.pop();
      }
    }
    await checkAverages();
  });

  it("lets a user rate recipes of another household of the group", async () => {
    const h2 = await secondHousehold(t, "Rating Neighbours");
    const { slug, id } = await newRecipe(t, h2.token, "Neighbour Curry");
    expect((await rate(token, adminId, slug, { rating: 4 })).status).toBe(200);
    expect(
      ((await (await t.api(`/api/users/self/ratings/${id}`, { token })).json()) as { rating: number }).rating,
    ).toBe(4);
  });

  it("orders by rating with the caller's own rating first, then the average", async () => {
    const a = await newRecipe(t, token, "Order Alpha");
    const c = await newRecipe(t, token, "Order Gamma");
    await rate(b.token, b.user.id, a.slug, { rating: 1 });
    await rate(b.token, b.user.id, c.slug, { rating: 5 });
    await rate(token, adminId, a.slug, { rating: 5 });
    const q = `queryFilter=${encodeURIComponent(`id IN ["${a.id}", "${c.id}"]`)}&orderBy=rating&orderDirection=desc`;
    const asAdmin = (await (await t.api(`/api/recipes?${q}`, { token })).json()) as {
      items: { id: string }[];
    };
    // For the admin: Alpha counts their own 5, Gamma its average 5 (a tie). For b: their own 5 on Gamma beats their 1 on Alpha.
    expect(asAdmin.items.map((i) => i.id).sort()).toEqual([a.id, c.id].sort());
    const asB = (await (await t.api(`/api/recipes?${q}`, { token: b.token })).json()) as {
      items: { id: string }[];
    };
    expect(asB.items.map((i) => i.id)).toEqual([c.id, a.id]);
  });

  it("keeps other groups out: their users and recipes are 404s, never data", async () => {
    const other = await otherGroup(t, "Rating Strangers");
    const { slug } = await newRecipe(t, token, "Home Only");
    expect((await rate(other.token, other.user.id, slug, { rating: 5 })).status).toBe(404);
    expect((await t.api(`/api/users/${adminId}/ratings`, { token: other.token })).status).toBe(404);
    expect((await t.api(`/api/users/${other.user.id}/ratings`, { token })).status).toBe(404);
    // An admin of another group cannot reach into this one either.
    const otherAdmin = await addMember(t, { group: other.group, admin: true });
    expect((await rate(otherAdmin.token, adminId, slug, { rating: 1 })).status).toBe(404);
  });
});
