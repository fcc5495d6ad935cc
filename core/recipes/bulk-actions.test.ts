import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { UserRecord } from "../schemas/records.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;
let sameHousehold: Actor;
let otherHousehold: Actor;

const flags = {
  admin: false,
  advanced: false,
  canInvite: false,
  canManage: false,
  canManageHousehold: false,
  canOrganize: false,
};
const as = (user: UserRecord): Actor => ({ kind: "user", user });

beforeAll(async () => {
  scratch = await openScratchLarder("bulk");
  larder = scratch.larder;
  const first = scratch.admin.user;
  admin = as(first);
  const home = larder.groups.byId(first.groupId);
  if (!home) throw new Error("no home group");
  sameHousehold = as(
    await larder.users.create(
      { username: "mate", email: "mate@example.com", fullName: "Mate", ...flags },
      { groupId: first.groupId, householdId: first.householdId },
    ),
  );
  const h2 = await larder.groups.createHousehold(home, "Next Door");
  otherHousehold = as(
    await larder.users.create(
      { username: "neighbour", email: "neighbour@example.com", fullName: "N", ...flags },
      { groupId: first.groupId, householdId: h2.doc.data.id },
    ),
  );
});
afterAll(async () => {
  await scratch?.close();
});

const tagsOf = (slug: string) => larder.recipes.get(admin, slug).tags.map((t) => t.name);

describe("bulk actions", () => {
  it("skip recipes the caller may not edit (locked by their owner) without failing the batch", async () => {
    const open = await larder.recipes.create(admin, { name: "Open Recipe" });
    const locked = await larder.recipes.create(admin, { name: "Locked Recipe" });
    await larder.recipes.update(admin, locked, { settings: { locked: true } }, "patch");
    await larder.bulkActions.tag(sameHousehold, { recipes: [open, locked], tags: [{ name: "Shared" }] });
    expect(tagsOf(open)).toEqual(["Shared"]);
    expect(tagsOf(locked)).toEqual([]);
    await larder.bulkActions.delete(sameHousehold, { recipes: [locked] });
    expect(larder.recipes.get(admin, locked).name).toBe("Locked Recipe");
  });

  it("look recipes up in the caller's household only, as Mealie does", async () => {
    const mine = await larder.recipes.create(admin, { name: "Home Household Recipe" });
    await larder.bulkActions.categorize(otherHousehold, {
      recipes: [mine],
      categories: [{ name: "Elsewhere" }],
    });
    expect(larder.recipes.get(admin, mine).recipeCategory).toEqual([]);
    const exp = await larder.bulkActions.export(otherHousehold, { recipes: [mine] });
    expect(exp.groupId).toBe(larder.users.all()[0].groupId);
  });

  it("resolve organizers by id or slug to their current name, and create unknown ones by name", async () => {
    const slug = await larder.recipes.create(admin, { name: "Organized Recipe" });
    const home = larder.groups.byId(larder.users.all()[0].groupId);
    if (!home) throw new Error("no home group");
    const existing = await larder.organizers.create(home, "tags", { name: "Quick Meals" });
    await larder.bulkActions.tag(admin, {
      recipes: [slug, slug],
      tags: [
        { id: existing.id, name: "stale name" },
        { slug: "quick-meals" },
        { name: "Fresh Tag" },
        { name: "  " },
      ],
    });
    expect(tagsOf(slug)).toEqual(["Quick Meals", "Fresh Tag"]);
    expect(larder.organizers.byName(home, "tags", "Fresh Tag")).not.toBeNull();
  });

  it("settings: omitted values take the defaults, locked and Larder's disableAmount stay", async () => {
    const slug = await larder.recipes.create(admin, { name: "Settings Recipe" });
    await larder.recipes.update(
      admin,
      slug,
      { settings: { locked: true, disableAmount: true, showAssets: true } },
      "patch",
    );
    await larder.bulkActions.settings(admin, { recipes: [slug], settings: { public: true } });
    const s = larder.recipes.get(admin, slug).settings;
    expect(s).toMatchObject({ public: true, showAssets: false, locked: true, disableAmount: true });
  });

  it("refuse malformed input with a validation error", async () => {
    await expect(larder.bulkActions.tag(admin, { recipes: "all", tags: [] })).rejects.toThrow();
    await expect(larder.bulkActions.settings(admin, { recipes: [] })).rejects.toThrow();
    await expect(larder.bulkActions.export(admin, { recipes: [], exportType: "csv" })).rejects.toThrow();
  });
});
