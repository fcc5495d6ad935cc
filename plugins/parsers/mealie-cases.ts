/**
 * Mealie's own parser expectations (shared/fixtures/ingredients/mealie-parser-cases.json), run against
 * a parser: used by the tests and by `eval:parser`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ParsedIngredientResult, ParserVocabulary } from "../../core/plugins/kinds.js";
import { SIZES } from "./brute/brute.js";
import { FIXTURES_DIR } from "./nlp/dataset.js";

export const CASES_PATH = join(FIXTURES_DIR, "mealie-parser-cases.json");
export const hasMealieCases = existsSync(CASES_PATH);

interface Case {
  input: string;
  quantity: number;
  unit: string;
  food: string;
  note: string;
}
interface CasesFile {
  nlp: { cases: Case[] };
  brute: { cases: Case[]; seeded_units: string[]; seeded_foods: string[] };
}

function readCases(): CasesFile {
  return JSON.parse(readFileSync(CASES_PATH, "utf8")) as CasesFile;
}

/** "PluralUnitName (plural abc123, abbr doremiabc, plural abbr doremi123)" → its fields. */
function seeded(entry: string): {
  name: string;
  pluralName: string | null;
  abbreviation: string | null;
  pluralAbbreviation: string | null;
  aliases: { name: string }[];
} {
  const m = /^(.*?)\s*(?:\((.*)\))?$/.exec(entry)!;
  const out = {
    name: m[1],
    pluralName: null as string | null,
    abbreviation: null as string | null,
    pluralAbbreviation: null as string | null,
    aliases: [] as { name: string }[],
  };
  for (const part of (m[2] ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [, key, value] = /^(plural abbr|plural|abbr|alias)\s+(.*)$/.exec(part) ?? [];
    if (key === "plural abbr") out.pluralAbbreviation = value;
    else if (key === "plural") out.pluralName = value;
    else if (key === "abbr") out.abbreviation = value;
    else if (key === "alias") out.aliases.push({ name: value });
  }
  return out;
}

/** The unit and food table Mealie's brute test seeds. */
export function mealieCaseVocabulary(): ParserVocabulary {
  const c = readCases().brute;
  return {
    units: c.seeded_units.map((u, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      ...seeded(u),
    })),
    foods: c.seeded_foods.map((f, i) => {
      const s = seeded(f);
      return {
        id: `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`,
        name: s.name,
        pluralName: s.pluralName,
        aliases: s.aliases,
      };
    }),
  };
}

export interface CaseOutcome {
  nlp: { passed: number; total: number };
  brute: { passed: number; total: number };
  failures: string[];
  /** Cases passed with Larder's own answer (larderAnswer), not Mealie's. */
  departures: number;
}

/**
 * What Larder answers where it departs from Mealie on purpose (decision 0231), else the case as it is.
 * Mealie's brute parser takes the word after the amount for the unit whatever it is, a size too; Larder's
 * takes only a known unit, and a size in front of the food goes to the note, before the rest. And "a"
 * before a unit is one of it, as in the nlp parser, where Mealie's brute parser reads no amount.
 */
export function larderAnswer(parser: "nlp" | "brute", c: Case): Case {
  if (parser !== "brute") return c;
  if (SIZES.has(c.unit.toLowerCase()))
    return { ...c, unit: "", note: [c.unit, c.note].filter(Boolean).join(", ") };
  // "a stalk …": one stalk, as the nlp parser reads it; Mealie's brute parser finds no amount.
  if (/^an?\s/i.test(c.input) && c.quantity === 0 && c.unit !== "") return { ...c, quantity: 1 };
  return c;
}

/** Compares as the upstream tests do (quantity approx., names and note exact; absent = 0 / ""). */
export function checkCase(c: Case, r: ParsedIngredientResult): string | null {
  const got = {
    quantity: r.ingredient.quantity ?? 0,
    unit: r.ingredient.unit?.name ?? "",
    food: r.ingredient.food?.name ?? "",
    note: r.ingredient.note ?? "",
  };
  const qtyOk = Math.abs(got.quantity - c.quantity) <= Math.max(1e-6 * Math.abs(c.quantity), 0.001);
  if (qtyOk && got.unit === c.unit && got.food === c.food && got.note === c.note) return null;
  return `${JSON.stringify(c.input)}: expected ${JSON.stringify({ quantity: c.quantity, unit: c.unit, food: c.food, note: c.note })}, got ${JSON.stringify(got)}`;
}

export function runMealieCases(
  parse: (parser: "nlp" | "brute", input: string) => ParsedIngredientResult,
): CaseOutcome {
  const file = readCases();
  const out: CaseOutcome = {
    nlp: { passed: 0, total: 0 },
    brute: { passed: 0, total: 0 },
    failures: [],
    departures: 0,
  };
  for (const parser of ["nlp", "brute"] as const) {
    for (const mealie of file[parser].cases) {
      out[parser].total++;
      const c = larderAnswer(parser, mealie);
      if (c !== mealie) out.departures++;
      const problem = checkCase(c, parse(parser, c.input));
      if (problem) out.failures.push(`${parser} ${problem}`);
      else out[parser].passed++;
    }
  }
  return out;
}
