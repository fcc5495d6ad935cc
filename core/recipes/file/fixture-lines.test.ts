/**
 * Real ingredient lines (shared/fixtures/ingredients, see its SOURCE.md) through the grammar: every line
 * reads, writes and reads back to the same ingredient, and nothing is dropped. Skipped when the fixtures
 * folder is absent, a failure under CI=true (LARDER_INGREDIENT_FIXTURES overrides its location).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { requireDependency, runsWith } from "../../testing/needs.js";
import type { Vocabulary } from "../doc.js";
import { formatIngredientLine, parseIngredientLine } from "./ingredient-line.js";

const DIR =
  process.env.LARDER_INGREDIENT_FIXTURES ??
  fileURLToPath(new URL("../../../../shared/fixtures/ingredients/", import.meta.url));
const present = existsSync(`${DIR}/unlabelled.txt`) && existsSync(`${DIR}/test.csv`);
const what = `the ingredient fixtures at ${DIR}`;

/** Foods and units named in the labelled test split: a realistic, large vocabulary. */
function vocabularyFromFixtures(): Vocabulary {
  const units = new Set<string>();
  const foods = new Set<string>();
  const rows = readFileSync(`${DIR}/test.csv`, "utf8").split("\n").slice(1);
  for (const row of rows) {
    const cols = [...row.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) =>
      m[1].replace(/^"|"$/g, "").replace(/""/g, '"'),
    );
    if (cols[3]) foods.add(cols[3].trim().toLowerCase());
    for (const u of (cols[5] ?? "").split(" ")) if (/^\p{L}+$/u.test(u)) units.add(u.toLowerCase());
  }
  return {
    units: [...units].map((name) => ({
      name,
      pluralName: null,
      abbreviation: "",
      pluralAbbreviation: null,
      aliases: [],
      useAbbreviation: false,
      fraction: true,
    })),
    foods: [...foods].filter(Boolean).map((name) => ({ name, pluralName: null, aliases: [] })),
  };
}

describe.runIf(runsWith(present, what))("real ingredient lines (fixtures)", () => {
  beforeAll(() => requireDependency(present, what));

  it("read, write and read back to the same ingredient, keeping every line", () => {
    const vocab = vocabularyFromFixtures();
    const lines = readFileSync(`${DIR}/unlabelled.txt`, "utf8").split("\n");
    // A fixed sample: every 12th line (about 6,000).
    const sample = lines.filter((l, i) => i % 12 === 0 && l.trim() !== "");
    let structured = 0;
    for (const line of sample) {
      const first = parseIngredientLine(line, vocab);
      if (first.quantity !== null || first.food !== null || first.unit !== null) structured++;
      else expect(first.note).toBe(line.trim());
      const written = formatIngredientLine(first, vocab);
      const again = parseIngredientLine(written, vocab);
      expect(again, `line ${JSON.stringify(line)} written as ${JSON.stringify(written)}`).toEqual(first);
      expect(formatIngredientLine(again, vocab)).toBe(written);
    }
    expect(sample.length).toBeGreaterThan(1000);
    expect(structured / sample.length).toBeGreaterThan(0.5);
  });
});
