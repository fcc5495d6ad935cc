import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// The planner's dialog saves an entry with the copy it opened: a field it left as it was there takes
// the entry's value now, so a move made meanwhile (by someone else, or a drag in another tab) is kept.

let scratch: ScratchLarder;
beforeAll(async () => {
  scratch = await openScratchLarder("entry-update");
});
afterAll(async () => scratch?.close());

const opened = { date: "2026-12-08", entryType: "dinner", recipeId: "", title: "Soup", text: "" };

async function movedMeanwhile() {
  const { larder, admin } = scratch;
  const entry = await larder.mealplans.create(admin, opened);
  await larder.mealplans.update(admin, entry.id, {
    ...opened,
    date: "2026-12-09",
    entryType: "lunch",
    text: "From the API.",
  });
  return entry.id;
}

describe("saving a plan entry from the dialog's copy", () => {
  it("keeps what changed meanwhile in the fields the dialog left alone", async () => {
    const { larder, admin } = scratch;
    const id = await movedMeanwhile();
    const out = await larder.mealplans.update(admin, id, { ...opened, title: "Tomato soup" }, opened);
    expect(out).toMatchObject({
      date: "2026-12-09",
      entryType: "lunch",
      title: "Tomato soup",
      text: "From the API.",
      recipeId: null,
    });
  });

  it("sets the fields as sent without the opened copy", async () => {
    const { larder, admin } = scratch;
    const id = await movedMeanwhile();
    const out = await larder.mealplans.update(admin, id, opened);
    expect(out).toMatchObject({
      date: "2026-12-08",
      entryType: "dinner",
      title: "Soup",
      text: "",
      recipeId: null,
    });
  });
});
