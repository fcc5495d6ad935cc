import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { OrganizerActions } from "./organizer-actions.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

let scratch: ScratchLarder;
let larder: Larder;
let admin: Actor;
let org: OrganizerActions;

const tagsOf = (slug: string) => larder.recipes.get(admin, slug).tags.map((t) => t.name);
const row = (name: string) => org.rows(admin, "tags").find((r) => r.name === name);

beforeAll(async () => {
  scratch = await openScratchLarder("organizers");
  ({ larder, admin } = scratch);
  org = larder.organizerActions;
  await larder.recipes.create(admin, { name: "Soup", tags: ["Quick", "Dinner"] });
  await larder.recipes.create(admin, { name: "Stew", tags: ["Weeknight", "Dinner"] });
  await larder.recipes.create(admin, { name: "Salad", tags: ["Quick", "Weeknight"] });
});

afterAll(async () => {
  await scratch?.close();
});

describe("organizer screens' operations", () => {
  it("lists each tag with how many recipes name it", () => {
    expect(org.rows(admin, "tags").map((r) => [r.name, r.count])).toEqual([
      ["Dinner", 2],
      ["Quick", 2],
      ["Weeknight", 2],
    ]);
  });

  it("renames a tag on every recipe that names it", async () => {
    const renamed = await org.rename(admin, "tags", row("Quick")!.id, "Fast");
    expect(renamed.name).toBe("Fast");
    expect(tagsOf("soup")).toEqual(["Fast", "Dinner"]);
    expect(row("Quick")).toBeUndefined();
    expect(row("Fast")?.count).toBe(2);
  });

  it("merges tags: recipes name the target once, the merged tag is gone", async () => {
    const n = await org.merge(admin, "tags", [row("Weeknight")!.id], row("Dinner")!.id);
    expect(n).toBe(2);
    expect(tagsOf("stew")).toEqual(["Dinner"]);
    expect(tagsOf("salad")).toEqual(["Fast", "Dinner"]);
    expect(row("Weeknight")).toBeUndefined();
    expect(row("Dinner")?.count).toBe(3);
  });

  it("refuses a merge into itself", async () => {
    const id = row("Dinner")!.id;
    await expect(org.merge(admin, "tags", [id], id)).rejects.toThrow(/at least one/);
  });

  it("refuses to create a tag recipes already name, even one not stored yet", async () => {
    await expect(org.add(admin, "tags", "dinner")).rejects.toThrow(
      "An item with the name 'dinner' already exists",
    );
  });

  it("creates an unused tag and deletes a used one from its recipes", async () => {
    await org.add(admin, "tags", "Party");
    expect(row("Party")?.count).toBe(0);
    await org.remove(admin, "tags", row("Fast")!.id);
    expect(tagsOf("soup")).toEqual(["Dinner"]);
    expect(row("Fast")).toBeUndefined();
  });
});
