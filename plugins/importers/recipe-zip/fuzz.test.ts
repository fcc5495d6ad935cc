/**
 * Recipe zips with hostile recipe JSON (fast-check, bounded in runs): Mealie's export JSON of a recipe,
 * well typed but with hostile text and up to two fields of any type and shape, in camelCase or in
 * Mealie's snake_case, beside a picture that is or is not one. Through the import service each zip is a
 * recipe or a 4xx, never a 500, and the importer stays enabled.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../../../core/testing/scratch-larder.js";
import { hostileRecipeBody } from "../../../core/testing/recipe-arbitraries.js";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { importers } from "../index.js";
import { FUZZ_RUNS, tally } from "../../../core/testing/fuzz.js";

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const zipOf = fc
  .tuple(hostileRecipeBody, fc.boolean(), fc.uint8Array({ maxLength: 48 }))
  .map(([recipe, snakeCase, picture]) => {
    const json = snakeCase
      ? Object.fromEntries(Object.entries(recipe).map(([k, v]) => [snake(k), v]))
      : recipe;
    return makeZip([
      { name: "soup.json", data: JSON.stringify(json) },
      { name: "original.webp", data: Buffer.from(picture) },
    ]);
  });

describe("recipe zips with hostile recipe JSON", () => {
  let env: ScratchLarder;
  beforeAll(async () => {
    env = await openScratchLarder("zip-fuzz", {}, { plugins: importers });
  });
  afterAll(async () => {
    await env?.close();
  });

  it("each is a recipe or a 4xx, and the importer stays enabled", async () => {
    const { done, fivexx } = await tally(zipOf, (zip) => env.larder.imports.importZip(env.admin, zip));
    expect(fivexx.slice(0, 5)).toEqual([]);
    expect(done).toBeGreaterThan(FUZZ_RUNS / 10);
    expect(env.larder.plugins.list().filter((p) => p.state !== "loaded")).toEqual([]);
  }, 120_000);
});
