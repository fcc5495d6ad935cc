/**
 * Recipe writes with hostile values in Mealie's recipe shape (fast-check, bounded in runs): every field a
 * client sends (ingredients with units and foods, steps with references, organizers, nutrition,
 * settings, notes, extras, times, yields, dates) holding values of any type and shape, on a body that
 * is otherwise well typed but holds text that means something to YAML and Markdown. A `PUT` or `PATCH`
 * is saved or refused with a 4xx, never a 500, and a saved recipe reads back as saved. (That the file
 * itself round-trips is round-trip.test.ts's property.)
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import { hostileRecipeBody } from "../testing/recipe-arbitraries.js";
import { FUZZ_RUNS, tally } from "../testing/fuzz.js";

describe("recipe writes with hostile values in Mealie's shape", () => {
  let env: ScratchLarder;
  beforeAll(async () => {
    env = await openScratchLarder("write-fuzz");
  });
  afterAll(async () => {
    await env?.close();
  });

  it("a PUT or PATCH is saved and reads back, or is refused with a 4xx", async () => {
    const { larder, admin } = env;
    const writes = fc.tuple(hostileRecipeBody, fc.constantFrom<"put" | "patch">("put", "patch"));
    const { done, fivexx } = await tally(writes, async ([input, mode]) => {
      const slug = await larder.recipes.create(admin, { name: "Fuzz Soup" });
      try {
        const out = await larder.recipes.update(admin, slug, input, mode);
        const again = larder.recipes.get(admin, out.slug);
        if (again.name !== out.name || again.recipeIngredient.length !== out.recipeIngredient.length)
          throw new Error(`${mode} read back unlike what was saved: ${JSON.stringify(input).slice(0, 200)}`);
      } finally {
        for (const entry of larder.recipes.store.list("home"))
          await larder.recipes.remove(admin, entry.slug).catch(() => undefined);
      }
    });
    expect(fivexx.slice(0, 5)).toEqual([]);
    // Enough of the generated bodies are valid for the writes themselves to be tried.
    expect(done).toBeGreaterThan(FUZZ_RUNS / 10);
  }, 120_000);
});
