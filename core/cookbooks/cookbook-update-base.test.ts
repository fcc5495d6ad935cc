import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// The cookbooks page's dialog saves a cookbook with the copy it opened: a field it left as it was there
// takes the cookbook's value now, so what another member changed while the dialog was open is kept.

let scratch: ScratchLarder;
beforeAll(async () => {
  scratch = await openScratchLarder("cookbook-update-base");
});
afterAll(async () => scratch?.close());

const opened = { name: "Weeknights", public: false, queryFilterString: 'tags.name IN ["quick"]' };

async function changedMeanwhile(name: string) {
  const { larder, admin } = scratch;
  const book = await larder.cookbooks.create(admin, { ...opened, name });
  const dialogCopy = { ...opened, name };
  await larder.cookbooks.update(admin, book.id, { ...dialogCopy, public: true, description: "Shared now." });
  return { id: book.id, dialogCopy };
}

describe("saving a cookbook from the dialog's copy", () => {
  it("keeps what changed meanwhile in the fields the dialog left alone", async () => {
    const { larder, admin } = scratch;
    const { id, dialogCopy } = await changedMeanwhile("Weeknights A");
    const filter = 'tags.name IN ["quick", "easy"]';
    const out = await larder.cookbooks.update(
      admin,
      id,
      { ...dialogCopy, queryFilterString: filter },
      dialogCopy,
    );
    expect(out).toMatchObject({
      name: "Weeknights A",
      public: true,
      description: "Shared now.",
      queryFilterString: filter,
    });
  });

  it("keeps a rename made meanwhile, and its slug, when the dialog changed something else", async () => {
    const { larder, admin } = scratch;
    const { id, dialogCopy } = await changedMeanwhile("Weeknights B");
    const renamed = await larder.cookbooks.update(admin, id, { ...dialogCopy, name: "School Nights" });
    const out = await larder.cookbooks.update(admin, id, { ...dialogCopy, public: false }, dialogCopy);
    expect(out).toMatchObject({ name: "School Nights", slug: renamed.slug, public: false });
  });

  it("sets the fields as sent without the opened copy, as a Mealie client's PUT does", async () => {
    const { larder, admin } = scratch;
    const { id, dialogCopy } = await changedMeanwhile("Weeknights C");
    const out = await larder.cookbooks.update(admin, id, dialogCopy);
    expect(out).toMatchObject({
      name: "Weeknights C",
      public: false,
      queryFilterString: opened.queryFilterString,
    });
  });
});
