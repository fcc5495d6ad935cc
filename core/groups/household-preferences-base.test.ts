import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// The household settings page saves its preferences with the ones it showed: a preference it left as
// it was there is not sent on, so what another member changed meanwhile stays.

let scratch: ScratchLarder;
beforeAll(async () => {
  scratch = await openScratchLarder("household-preferences-base");
});
afterAll(async () => scratch?.close());

describe("saving household preferences from the page's copy", () => {
  it("keeps what changed meanwhile in the preferences the page left alone", async () => {
    const { larder, admin } = scratch;
    const shown = { ...larder.membership.household(admin).preferences };
    await larder.membership.updateHouseholdPreferences(admin, { privateHousehold: !shown.privateHousehold });
    const out = await larder.membership.updateHouseholdPreferences(
      admin,
      { ...shown, recipePublic: !shown.recipePublic },
      shown,
    );
    expect(out.preferences).toMatchObject({
      privateHousehold: !shown.privateHousehold,
      recipePublic: !shown.recipePublic,
      firstDayOfWeek: shown.firstDayOfWeek,
    });
  });

  it("sets every preference sent without the page's copy, as a Mealie client's PUT does", async () => {
    const { larder, admin } = scratch;
    const shown = { ...larder.membership.household(admin).preferences };
    await larder.membership.updateHouseholdPreferences(admin, { recipeShowAssets: !shown.recipeShowAssets });
    const out = await larder.membership.updateHouseholdPreferences(admin, shown);
    expect(out.preferences.recipeShowAssets).toBe(shown.recipeShowAssets);
  });
});
