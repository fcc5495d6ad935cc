import { readFileSync } from "node:fs";
import { parseIngredientLine, formatIngredientLine } from "./core/recipes/file/ingredient-line.js";
import type { Vocabulary } from "./core/recipes/doc.js";
const csv = readFileSync("/work/shared/fixtures/ingredients/test.csv", "utf8").split("\n").slice(1);
const units = new Set<string>(); const foods = new Set<string>();
for (const row of csv) {
  const cols = row.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, "").replace(/^"|"$/g, "").replace(/""/g, '"')) ?? [];
  if (cols[3]) foods.add(cols[3].toLowerCase());
  if (cols[5]) for (const u of cols[5].split(" ")) if (u) units.add(u.toLowerCase());
}
const vocab: Vocabulary = {
  units: [...units].slice(0, 80).map((name) => ({ name, pluralName: null, abbreviation: "", pluralAbbreviation: null, aliases: [], useAbbreviation: false, fraction: true })),
  foods: [...foods].slice(0, 3000).map((name) => ({ name, pluralName: null, aliases: [] })),
};
console.log("units", vocab.units.length, "foods", vocab.foods.length);
const lines = readFileSync("/work/shared/fixtures/ingredients/unlabelled.txt", "utf8").split("\n").filter(Boolean).slice(0, 20000);
let t0 = performance.now();
for (const l of lines) parseIngredientLine(l, vocab);
console.log("parse", lines.length, (performance.now() - t0).toFixed(0), "ms");
t0 = performance.now();
for (const l of lines) parseIngredientLine(l, vocab);
console.log("parse again", (performance.now() - t0).toFixed(0), "ms");
t0 = performance.now();
let bad = 0;
for (const l of lines) { const a = parseIngredientLine(l, vocab); const f = formatIngredientLine(a, vocab); const b = parseIngredientLine(f, vocab); if (JSON.stringify({...a}) !== JSON.stringify({...b})) { if (bad++ < 10) console.log("UNSTABLE", JSON.stringify(l), "->", JSON.stringify(f), JSON.stringify(a), JSON.stringify(b)); } }
console.log("roundtrip", (performance.now() - t0).toFixed(0), "ms", "bad", bad);
