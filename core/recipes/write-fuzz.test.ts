/**
 * Recipe writes with hostile values in Mealie's recipe shape (fast-check, bounded in runs): every field a
 * client sends (ingredients with units and foods, steps with references, organizers, nutrition,
 * settings, notes, extras, times, yields, dates) holding values of any type and shape, on a body that
 * is otherwise well typed but holds text that means something to YAML and Markdown. A `PUT` or `PATCH`
 * is saved or refused with a 4xx, never a 500, and a saved recipe reads back as saved. (That the file
 * itself round-trips is round-trip.test.ts's property.)
 */
import fc from "fast-check";
import { ZodError } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LarderError } from "../errors.js";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import { hostileRecipeBody } from "../testing/recipe-arbitraries.js";

const RUNS = Number(process.env.LARDER_FUZZ_RUNS ?? 60);
const SEED = process.env.LARDER_FUZZ_SEED ? Number(process.env.LARDER_FUZZ_SEED) : undefined;

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
    const bugs: string[] = [];
    let saved = 0;
    await fc.assert(
      fc.asyncProperty(
        hostileRecipeBody,
        fc.constantFrom<"put" | "patch">("put", "patch"),
        async (input, mode) => {
          const slug = await larder.recipes.create(admin, { name: "Fuzz Soup" });
          try {
            const out = await larder.recipes.update(admin, slug, input, mode);
            saved++;
            const again = larder.recipes.get(admin, out.slug);
            if (again.name !== out.name || again.recipeIngredient.length !== out.recipeIngredient.length)
              bugs.push(`read back unlike what was saved: ${JSON.stringify(input).slice(0, 200)}`);
          } catch (e) {
            // A ZodError is the API's 422 with the fields named (web/api maps it).
            const status = e instanceof LarderError ? e.status : e instanceof ZodError ? 422 : 500;
            if (status >= 500) bugs.push(`${mode}: ${(e as Error).name}: ${(e as Error).message}`);
          } finally {
            const left = larder.recipes.store.list("home");
            for (const entry of left) await larder.recipes.remove(admin, entry.slug).catch(() => undefined);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect(bugs.slice(0, 5)).toEqual([]);
    // Enough of the generated bodies are valid for the writes themselves to be tried.
    expect(saved).toBeGreaterThan(RUNS / 10);
  }, 120_000);
});
