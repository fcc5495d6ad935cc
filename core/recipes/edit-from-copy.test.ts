import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConflictError } from "../errors.js";
import { addMember, openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import type { Actor } from "../actor.js";
import { EDITED_SINCE } from "./recipes-service.js";

// The app's editor saves the whole recipe it opened, with that copy as its base (decision 0306): what
// someone else changed meanwhile stays unless the editor changed the same field.

let scratch: ScratchLarder;
let other: Actor;

beforeAll(async () => {
  scratch = await openScratchLarder("edit-from-copy");
  const group = scratch.larder.groups.all()[0];
  other = { kind: "user", user: await addMember(scratch.larder, group, "other") };
});
afterAll(async () => scratch?.close());

/** A new recipe and the copy an editor opens of it, as the page hands it over (JSON). */
async function opened(name: string) {
  const { larder, admin } = scratch;
  const slug = await larder.recipes.create(admin, { name });
  await larder.recipes.update(admin, slug, { description: "As first written.", recipeServings: 2 }, "patch");
  const copy = JSON.parse(JSON.stringify(larder.recipes.get(admin, slug))) as Record<string, unknown>;
  return { slug, copy };
}

describe("a save from the editor's copy", () => {
  it("keeps a tag another person added meanwhile, and the editor's own change", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Soup");
    await larder.recipes.update(other, slug, { tags: [{ name: "Quick" }] }, "patch");
    const saved = await larder.recipes.update(admin, slug, { ...copy, description: "Mine." }, "put", {
      base: copy,
    });
    expect(saved.description).toBe("Mine.");
    expect(saved.tags.map((t) => t.name)).toEqual(["Quick"]);
  });

  it("keeps ingredients, steps, notes and nutrition another person changed, sending them back as opened", async () => {
    const { larder, admin } = scratch;
    const slug = await larder.recipes.create(admin, {
      name: "Copy Curry",
      recipeIngredient: [{ quantity: 1, unit: "cup", food: "rice", note: "rinsed" }],
      recipeInstructions: [{ text: "Cook." }],
      notes: [{ title: "Tip", text: "Soak first." }],
      nutrition: { calories: "300" },
      settings: { public: true },
    });
    const copy = JSON.parse(JSON.stringify(larder.recipes.get(admin, slug))) as Record<string, unknown>;
    const theirs = await larder.recipes.update(
      other,
      slug,
      {
        recipeIngredient: [...(copy.recipeIngredient as object[]), { quantity: 2, food: "onion", note: "" }],
        recipeInstructions: [...(copy.recipeInstructions as object[]), { text: "Serve." }],
        notes: [{ title: "Tip", text: "Soak overnight." }],
        nutrition: { calories: "320" },
      },
      "patch",
    );
    const saved = await larder.recipes.update(admin, slug, { ...copy, description: "Mine." }, "put", {
      base: copy,
    });
    expect(saved.description).toBe("Mine.");
    expect(saved.recipeIngredient).toHaveLength(2);
    expect(saved.recipeIngredient).toEqual(theirs.recipeIngredient);
    expect(saved.recipeInstructions.map((i) => i.text)).toEqual(["Cook.", "Serve."]);
    expect(saved.notes).toEqual(theirs.notes);
    expect(saved.nutrition?.calories).toBe("320");
  });

  it("refuses with 409 when the other person changed the same field, keeping theirs", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Stew");
    await larder.recipes.update(other, slug, { description: "Theirs." }, "patch");
    const save = larder.recipes.update(admin, slug, { ...copy, description: "Mine." }, "put", { base: copy });
    await expect(save).rejects.toBeInstanceOf(ConflictError);
    await expect(save).rejects.toThrow(EDITED_SINCE);
    expect(larder.recipes.get(admin, slug).description).toBe("Theirs.");
  });

  it("saves the editor's fields over the other person's when the person chose to keep theirs, and only those", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Cake");
    await larder.recipes.update(other, slug, { description: "Theirs.", tags: [{ name: "Party" }] }, "patch");
    const saved = await larder.recipes.update(admin, slug, { ...copy, description: "Mine." }, "put", {
      base: copy,
      mineWins: true,
    });
    expect(saved.description).toBe("Mine.");
    expect(saved.tags.map((t) => t.name)).toEqual(["Party"]);
  });

  it("saves a field both set to the same value, and one only the editor changed", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Bread");
    await larder.recipes.update(other, slug, { description: "Same." }, "patch");
    const saved = await larder.recipes.update(
      admin,
      slug,
      { ...copy, description: "Same.", recipeServings: 8 },
      "put",
      { base: copy },
    );
    expect(saved).toMatchObject({ description: "Same.", recipeServings: 8 });
  });

  it("keeps a hand edit of the file the index has read, where a save used to be refused", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Tart");
    const file = join(scratch.base, "data", "groups", "home", "recipes", `${slug}.md`);
    await writeFile(file, (await readFile(file, "utf8")).replace("As first written.", "Edited by hand."));
    await larder.recipes.store.reload("home", slug);
    const saved = await larder.recipes.update(admin, slug, { ...copy, recipeServings: 6 }, "put", {
      base: copy,
    });
    expect(saved).toMatchObject({ description: "Edited by hand.", recipeServings: 6 });
    expect(await readFile(file, "utf8")).toContain("Edited by hand.");
  });

  it("without a copy (a Mealie client's PUT), replaces what it is sent, as Mealie does", async () => {
    const { larder, admin } = scratch;
    const { slug, copy } = await opened("Copy Pie");
    await larder.recipes.update(other, slug, { tags: [{ name: "Sweet" }] }, "patch");
    const saved = await larder.recipes.update(admin, slug, { ...copy, description: "Mine." }, "put");
    expect(saved.description).toBe("Mine.");
    expect(saved.tags).toEqual([]);
  });
});
