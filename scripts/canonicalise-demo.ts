/** Rewrites the demo recipes in canonical form (what the API would write), so they read back byte-identical. */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseRecipeFile, serializeRecipeFile } from "../core/recipes/file/recipe-file.js";
import { vocabularyOf } from "../core/foods/vocabulary-service.js";
import type { GroupData } from "../core/groups/registry.js";

const group = resolve("data/groups/home");
const read = (name: string) => ({ data: JSON.parse(readFileSync(join(group, name), "utf8")) as unknown });
const vocab = vocabularyOf({ units: read("units.json"), foods: read("foods.json") } as unknown as GroupData);
const dir = join(group, "recipes");
let changed = 0;
for (const f of readdirSync(dir).filter((n) => n.endsWith(".md"))) {
  const text = readFileSync(join(dir, f), "utf8");
  const out = serializeRecipeFile(parseRecipeFile(text, vocab), vocab);
  if (out !== text) {
    writeFileSync(join(dir, f), out);
    changed++;
  }
}
console.log(`canonicalised ${changed} demo recipes`);
