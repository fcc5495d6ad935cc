import { parseRecipeFile, serializeRecipeFile } from "./core/recipes/file/recipe-file.js";
import type { Vocabulary } from "./core/recipes/doc.js";
const u = (name: string, pluralName: string | null, abbreviation = "", useAbbreviation = false) => ({ name, pluralName, abbreviation, pluralAbbreviation: null, aliases: [], useAbbreviation, fraction: true });
const vocab: Vocabulary = {
  units: [u("gram", "grams", "g", true), u("tablespoon", "tablespoons", "tbsp", true), u("clove", "cloves"), u("pinch", "pinches"), u("batch", "batches")],
  foods: ["chicken thigh", "garam masala", "canned tomatoes", "garlic", "salt"].map((name) => ({ name, pluralName: null, aliases: [] })),
};
const text = `---
id: 3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10
name: Chicken Tikka Masala
owner: 7d1b0c52-0f7e-4d7c-8a55-3c1f6f0e2b11
recipeServings: 4
recipeYield: 4 servings
prepTime: 20 minutes
totalTime: 1 hour
categories: [Dinner]
tags: [Indian, Spicy]
tools: [Dutch Oven]
orgURL: https://example.org/tikka
nutrition:
  calories: "520"
settings:
  public: true
dateAdded: 2026-11-21T10:00:00Z
dateUpdated: 2026-11-21T18:02:11Z
---
A creamy, mildly spiced curry.

## Ingredients

- 600 g chicken thigh, cut into chunks
- 2 tbsp garam masala

### Sauce

- 400 g canned tomatoes
- 2-3 cloves garlic
- a pinch of salt
- 1 batch [Naan dough](naan-dough.md)

## Instructions

1. Marinate the chicken.
   ↳ uses 1, 2

### Sauce

2. **Simmer**
   Simmer the sauce for 20 minutes,
   stirring now and then.

## Notes

### Storage

Keeps three days in the fridge.
`;
const doc = parseRecipeFile(text, vocab);
console.log(JSON.stringify(doc, null, 1));
const out = serializeRecipeFile(doc, vocab);
console.log(out === text ? "BYTE-IDENTICAL" : "DIFF:\n" + out);
import { readFrontMatter } from "./core/recipes/file/front-matter.js";
import { parseBody } from "./core/recipes/file/body.js";
for (let round = 0; round < 3; round++) {
  let t0 = performance.now();
  for (let i = 0; i < 2000; i++) parseRecipeFile(text, vocab);
  const tp = (performance.now() - t0) / 2000;
  t0 = performance.now();
  for (let i = 0; i < 2000; i++) serializeRecipeFile(doc, vocab);
  const ts = (performance.now() - t0) / 2000;
  t0 = performance.now();
  for (let i = 0; i < 2000; i++) readFrontMatter(text);
  const tf = (performance.now() - t0) / 2000;
  const body = readFrontMatter(text).body;
  t0 = performance.now();
  for (let i = 0; i < 2000; i++) parseBody(body, vocab);
  const tb = (performance.now() - t0) / 2000;
  console.log({ parse: tp.toFixed(3), serialize: ts.toFixed(3), frontMatter: tf.toFixed(3), body: tb.toFixed(3) });
}
