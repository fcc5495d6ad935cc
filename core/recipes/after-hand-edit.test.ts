import { describe, expect, it } from "vitest";
import type { Recipe, RecipeInput } from "../schemas/recipe.js";
import { againAfterHandEdit, HAND_EDIT_TRIES, patchOnTopOfHandEdit } from "./after-hand-edit.js";
import { changedOnDisk } from "./store/file-state.js";
import { ConflictError } from "../errors.js";

/** The fields the merge compares; the rest of a wire recipe plays no part in it. */
function recipe(fields: Partial<Recipe>): Recipe {
  return {
    id: "r1",
    name: "Soup",
    userId: "u1",
    description: "As it was.",
    recipeYield: "4 bowls",
    tags: [],
    settings: { public: true, showNutrition: false },
    assets: [],
    ...fields,
  } as unknown as Recipe;
}
const input = (fields: Record<string, unknown>): RecipeInput => fields as RecipeInput;

describe("a change made again on top of a hand edit", () => {
  const before = recipe({});
  const byHand = recipe({ description: "Edited by hand." });

  it("a PATCH of another field becomes the same PATCH", () => {
    expect(patchOnTopOfHandEdit(before, byHand, input({ recipeYield: "6 bowls" }), "patch")).toEqual({
      recipeYield: "6 bowls",
    });
  });

  it("a PATCH of the field the person changed, to something else, is refused", () => {
    expect(patchOnTopOfHandEdit(before, byHand, input({ description: "From the API." }), "patch")).toBeNull();
    // Sent back as it was before the edit: it would undo the person's change, so it is refused too.
    expect(patchOnTopOfHandEdit(before, byHand, input({ description: "As it was." }), "patch")).toBeNull();
  });

  it("a PATCH that sets what the person also wrote goes through", () => {
    expect(patchOnTopOfHandEdit(before, byHand, input({ description: "Edited by hand." }), "patch")).toEqual({
      description: "Edited by hand.",
    });
  });

  it("a PUT sets only what it changed: a field sent back as it was keeps the person's value", () => {
    const put = input({ ...before, recipeYield: "2 loaves", updatedAt: "2026-01-01T00:00:00Z" });
    const patch = patchOnTopOfHandEdit(before, byHand, put, "put");
    expect(patch).toMatchObject({ recipeYield: "2 loaves" });
    expect(patch).not.toHaveProperty("description");
    expect(patch).not.toHaveProperty("updatedAt");
  });

  it("a PUT that leaves out a field the person filled in would empty it, and is refused", () => {
    const put = input({ name: "Soup", recipeYield: "4 bowls" });
    expect(patchOnTopOfHandEdit(before, byHand, put, "put")).toBeNull();
  });

  it("keeps trying while hand edits keep coming, then gives up with the 409", async () => {
    let tries = 0;
    const attempt = () => {
      tries++;
      return Promise.reject(changedOnDisk("home", "soup"));
    };
    await expect(againAfterHandEdit(attempt)).rejects.toThrow(/changed on disk since it was read/);
    expect(tries).toBe(HAND_EDIT_TRIES);
  });

  it("gives the hand edit to the next try, and lets other errors through at once", async () => {
    const seen: unknown[] = [];
    const result = await againAfterHandEdit((previous) => {
      seen.push(previous);
      return previous ? Promise.resolve("saved") : Promise.reject(changedOnDisk("home", "soup"));
    });
    expect(result).toBe("saved");
    expect(seen[0]).toBeNull();
    expect(seen[1]).toBeInstanceOf(ConflictError);
    let other = 0;
    await expect(
      againAfterHandEdit(() => {
        other++;
        return Promise.reject(new ConflictError("A recipe named soup already exists"));
      }),
    ).rejects.toThrow(/already exists/);
    expect(other).toBe(1);
  });
});
