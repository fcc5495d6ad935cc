import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { makeZip } from "../../../tests/support/zip-writer.js";
import { readRecipeZip } from "./read.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-recipe-zip-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function read(zip: Buffer) {
  const path = join(dir, "recipe.zip");
  await writeFile(path, zip);
  return readRecipeZip({ type: "zip", path }, {} as PluginContext);
}

describe("a recipe zip", () => {
  it("reads the recipe's JSON and its image, and no other entry", async () => {
    const recipe = JSON.stringify({ name: "Zip Soup", recipe_ingredient: [{ note: "1 leek" }] });
    // An entry whose size lies fails when read: read, as every JSON and image once was, it refused the
    // whole archive (and big ones were all held in memory at once).
    const lying = { data: "x".repeat(100_000), declaredSize: 10 };
    const [out] = await read(
      makeZip([
        { name: "zip-soup.json", data: recipe },
        { name: "zip-soup/images/original.webp", data: Buffer.from("RIFF....WEBP") },
        { name: "zip-soup/extra/other.json", ...lying },
        { name: "zip-soup/extra/thumb.png", ...lying },
      ]),
    );
    expect(out.recipe).toMatchObject({ name: "Zip Soup" });
    expect(out.image && "bytes" in out.image ? Buffer.from(out.image.bytes).toString() : null).toBe(
      "RIFF....WEBP",
    );
  });
});

describe("an archive of several recipes", () => {
  it("is refused with the count and where such an export goes, not read as its first recipe", async () => {
    const one = (name: string) => JSON.stringify({ name });
    await expect(
      read(
        makeZip([
          { name: "Air Fryer Shrimp/recipe.json", data: one("Air Fryer Shrimp") },
          { name: "Lemon Cake/recipe.json", data: one("Lemon Cake") },
          { name: "Plum Jam/recipe.json", data: one("Plum Jam") },
        ]),
      ),
    ).rejects.toThrow(/holds 3 recipes.*Import from another app/);
  });

  it("still reads one recipe in a folder of its own", async () => {
    const [out] = await read(makeZip([{ name: "soup/soup.json", data: JSON.stringify({ name: "Soup" }) }]));
    expect(out.recipe).toMatchObject({ name: "Soup" });
  });
});
