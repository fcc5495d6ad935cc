import { afterAll, beforeAll, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { OrganizerKind } from "../schemas/records.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// A group's organizer lists (the home page's filters, GET /api/organizers/*) are the stored
// organizers plus every name a recipe carries. They are kept between requests until a recipe of the
// group or the stored organizers change: each change below must show in the next list.

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;
let groupSlug: string;

beforeAll(async () => {
  scratch = await openScratchLarder("organizer-lists");
  ({ larder, admin } = scratch);
  groupSlug = larder.groups.byId(scratch.admin.user.groupId)!.slug;
  await larder.recipes.create(admin, { name: "Soup", tags: [{ name: "Winter" }] });
});

afterAll(async () => {
  await scratch?.close();
});

const names = (kind: OrganizerKind) =>
  larder.recipes.lister
    .organizers(admin, kind, { perPage: -1 })
    .items.map((o) => o.name)
    .sort();

it("follows recipe edits, new and removed recipes, hand edits and stored organizers", async () => {
  expect(names("tags")).toContain("Winter");
  // Asked again with nothing changed: the same answer.
  expect(names("tags")).toEqual(names("tags"));

  await larder.recipes.update(admin, "soup", { tags: [{ name: "Winter" }, { name: "Quick" }] }, "patch");
  expect(names("tags")).toEqual(expect.arrayContaining(["Quick", "Winter"]));

  await larder.recipes.create(admin, { name: "Stew", recipeCategory: [{ name: "Dinner" }] });
  expect(names("categories")).toContain("Dinner");

  // Names only a file carries (a hand edit stores no organizer) come and go with the file.
  const handEdit = async (slug: string, line: RegExp, replacement: string) => {
    const file = larder.folder.recipeFile(groupSlug, slug);
    await writeFile(file, (await readFile(file, "utf8")).replace(line, replacement));
    await larder.recipes.store.reload(groupSlug, slug);
  };
  await handEdit("soup", /^tags: .*$/m, "tags: [Summer Picnic]");
  expect(names("tags")).toContain("Summer Picnic");
  await handEdit("stew", /^name: Stew$/m, "name: Stew\ntools: [Clay Pot]");
  expect(names("tools")).toContain("Clay Pot");
  await larder.recipes.remove(admin, "stew");
  expect(names("tools")).not.toContain("Clay Pot");
  await handEdit("soup", /^tags: .*$/m, "tags: [Winter]");
  expect(names("tags")).not.toContain("Summer Picnic");

  await larder.organizerActions.create(admin, "tools", { name: "Wok" });
  expect(names("tools")).toContain("Wok");
});
