import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import { emptyRecipeDoc } from "./doc.js";
import { newId } from "../util/ids.js";

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;
let groupSlug: string;

beforeAll(async () => {
  scratch = await openScratchLarder("names");
  ({ larder, admin } = scratch);
  const first = scratch.admin.user;
  groupSlug = larder.groups.byId(first.groupId)!.slug;
  // A file whose name is not its file name (renamed by hand, or written by another tool).
  const doc = emptyRecipeDoc("Winter Stew");
  doc.id = newId();
  doc.owner = first.id;
  await larder.recipes.store.create(groupSlug, "pot-of-stew", doc);
});

afterAll(async () => {
  await scratch?.close();
});

describe("recipe names are unique in a group (spec §5)", () => {
  it("duplicating names the copy 'X (1)' even when the original's file has another name", async () => {
    const copy = await larder.recipes.duplicate(admin, "pot-of-stew");
    expect(copy.name).toBe("Winter Stew (1)");
    expect(copy.slug).toBe("winter-stew-1");
  });

  it("a new recipe with a taken name gets the next free suffix", async () => {
    const slug = await larder.recipes.create(admin, { name: "winter stew" });
    expect(larder.recipes.get(admin, slug).name).toBe("winter stew (2)");
  });

  it("duplicating twice counts on", async () => {
    const a = await larder.recipes.duplicate(admin, "pot-of-stew", "Winter Stew");
    expect(a.name).toBe("Winter Stew (3)");
  });
});
