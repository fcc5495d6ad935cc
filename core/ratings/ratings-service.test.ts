import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

let scratch: ScratchLarder;
beforeAll(async () => {
  scratch = await openScratchLarder("ratings");
});
afterAll(async () => {
  await scratch?.close();
});

describe("ratings an import brings in", () => {
  it("keeps them in one change, updating one already there, refusing outsiders, unknown recipes and non-numbers", async () => {
    const { larder, admin } = scratch;
    const soup = larder.recipes.get(admin, await larder.recipes.create(admin, { name: "Import Soup" }));
    const stew = larder.recipes.get(admin, await larder.recipes.create(admin, { name: "Import Stew" }));
    const home = larder.groups.byId(admin.user.groupId)!;
    await larder.ratings.set(admin, admin.user.id, soup.id, { rating: 2 });
    const me = admin.user.id;
    const { kept, refused } = await larder.ratings.importMany(home, [
      { userId: me, recipeId: soup.id, rating: 5, isFavorite: true },
      { userId: me, recipeId: stew.id, rating: null, isFavorite: true },
      { userId: "00000000-0000-4000-8000-00000000abcd", recipeId: stew.id, rating: 3, isFavorite: false },
      { userId: me, recipeId: "00000000-0000-4000-8000-00000000beef", rating: 3, isFavorite: false },
      { userId: me, recipeId: stew.id, rating: Number.NaN, isFavorite: false },
    ]);
    expect(kept).toBe(2);
    expect(refused).toEqual([2, 3, 4]);
    const mine = larder.ratings.forSelf(admin, false);
    expect(mine.map((r) => [r.recipeId, r.rating, r.isFavorite]).sort()).toEqual(
      [
        [soup.id, 5, true],
        [stew.id, null, true],
      ].sort(),
    );
  });
});
