import { afterAll, beforeAll, expect, it } from "vitest";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { HouseholdData } from "../groups/registry.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// An entry is made once per recipe document (decision 0135); what it reads from the users and the
// households must still follow their changes, as the recipe's own page does.

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;
let family: HouseholdData;
let nextDoor: HouseholdData;

beforeAll(async () => {
  scratch = await openScratchLarder("owners");
  ({ larder, admin } = scratch);
  const first = scratch.admin.user;
  const home = larder.groups.byId(first.groupId)!;
  family = larder.groups.householdById(first.householdId)!.household;
  nextDoor = await larder.groups.createHousehold(home, "Next Door");
  await larder.recipes.create(admin, { name: "Soup" });
  await larder.recipes.create(admin, { name: "Stew" });
});

afterAll(async () => {
  await scratch?.close();
});

const listed = () =>
  larder.recipes.lister
    .listEntries(admin, { perPage: -1, orderBy: "name", orderDirection: "asc" })
    .items.map((e) => ({ householdId: e.householdId, household: e.household.slug, user: e.user.username }));
const slugs = (q: object) =>
  larder.recipes.lister
    .list(admin, { perPage: -1, orderBy: "name", orderDirection: "asc", ...q })
    .items.map((r) => r.slug);

it("lists an owner's recipes under the household they moved to and the name they took, as the recipe page does", async () => {
  const userId = admin.kind === "user" ? admin.user.id : "";
  expect(listed()).toEqual([
    { householdId: family.doc.data.id, household: family.slug, user: "admin" },
    { householdId: family.doc.data.id, household: family.slug, user: "admin" },
  ]);
  expect(slugs({ households: [family.slug] })).toEqual(["soup", "stew"]);
  await larder.users.update(userId, { householdId: nextDoor.doc.data.id, username: "chef" });
  try {
    expect(listed()).toEqual([
      { householdId: nextDoor.doc.data.id, household: nextDoor.slug, user: "chef" },
      { householdId: nextDoor.doc.data.id, household: nextDoor.slug, user: "chef" },
    ]);
    expect(larder.recipes.get(admin, "soup").householdId).toBe(nextDoor.doc.data.id);
    expect(slugs({ households: [family.slug] })).toEqual([]);
    expect(slugs({ households: [nextDoor.slug] })).toEqual(["soup", "stew"]);
    expect(slugs({ queryFilter: 'user.username = "chef"' })).toEqual(["soup", "stew"]);
  } finally {
    await larder.users.update(userId, { householdId: family.doc.data.id, username: "admin" });
  }
  expect(listed().map((e) => e.household)).toEqual([family.slug, family.slug]);
});

it("filters by a household's privacy as it is now", async () => {
  const privacy = (v: boolean) =>
    slugs({ queryFilter: `household.preferences.privateHousehold = ${v ? "TRUE" : "FALSE"}` });
  const was = family.doc.data.preferences.privateHousehold;
  expect(privacy(was)).toEqual(["soup", "stew"]);
  await family.doc.update((d) => {
    d.preferences.privateHousehold = !was;
  });
  try {
    expect(privacy(!was)).toEqual(["soup", "stew"]);
    expect(privacy(was)).toEqual([]);
  } finally {
    await family.doc.update((d) => {
      d.preferences.privateHousehold = was;
    });
  }
});

it("keeps the entries when the users are rewritten without a change entries read", async () => {
  const entries = () => larder.recipes.lister.listEntries(admin, { perPage: -1 }).items;
  const before = entries();
  const userId = admin.kind === "user" ? admin.user.id : "";
  await larder.users.update(userId, { fullName: "Someone Else" });
  const after = entries();
  expect(after.length).toBe(before.length);
  expect(after.every((e, i) => e === before[i])).toBe(true);
});

it("gives a summary and an entry read outside any list the owner's household as it is now", async () => {
  const userId = admin.kind === "user" ? admin.user.id : "";
  const entry = larder.recipes.entryById(larder.recipes.get(admin, "soup").id!)!;
  // Made and cached before the move, as an organizer page or a meal plan would leave them.
  expect(larder.recipes.summaryOf(entry).householdId).toBe(family.doc.data.id);
  expect(larder.recipes.lister.entryOf(entry).household.slug).toBe(family.slug);
  await larder.users.update(userId, { householdId: nextDoor.doc.data.id });
  try {
    expect(larder.recipes.summaryOf(entry).householdId).toBe(nextDoor.doc.data.id);
    expect(larder.recipes.lister.entryOf(entry).household.slug).toBe(nextDoor.slug);
  } finally {
    await larder.users.update(userId, { householdId: family.doc.data.id });
  }
  expect(larder.recipes.lister.entryOf(entry).household.slug).toBe(family.slug);
  expect(larder.recipes.summaryOf(entry).householdId).toBe(family.doc.data.id);
});
