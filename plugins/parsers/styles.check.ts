/** Reading a style case with either parser against the en-US seed vocabulary, and what it got wrong. */
import { readFileSync } from "node:fs";
import { createMatcher } from "../../core/parsers/matcher.js";
import type { VocabularyMatcher } from "../../core/plugins/kinds.js";
import { parseLine as bruteLine } from "./brute/brute.js";
import { parseLine as nlpLine } from "./nlp/parse.js";
import type { StyleCase } from "./styles.cases.js";

let seeded: VocabularyMatcher | null = null;
function seedMatcher(): VocabularyMatcher {
  const read = (file: string) =>
    (
      JSON.parse(
        readFileSync(new URL(`../../templates/seed/en-US/${file}`, import.meta.url), "utf8"),
      ) as Array<{ aliases?: string[] }>
    ).map((x, i) => ({ ...x, id: `${file}-${i}`, aliases: (x.aliases ?? []).map((name) => ({ name })) }));
  seeded ??= createMatcher({ units: read("units.json") as never[], foods: read("foods.json") as never[] });
  return seeded;
}

/**
 * A note as compared: its parts in any order, "400g" and "400 g" and "14.5-ounce" alike (how a size is
 * spaced is the display's business, not the parser's).
 */
export function noteKey(note: string): string {
  return note
    .toLowerCase()
    .replace(/(\d)[\s-]*(?=\p{L})/gu, "$1 ")
    .split(/\s*,\s*/)
    .filter(Boolean)
    .sort()
    .join(", ");
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

/** The fields a parser reads wrong in a case, described; empty when it reads them all as expected. */
export function styleMismatches(parser: "nlp" | "brute", c: StyleCase): string[] {
  const [line, quantity, unit, food, note] = c;
  const expectedNote = parser === "brute" && c[5] ? c[5].bruteNote : note;
  const i = (parser === "nlp" ? nlpLine : bruteLine)(line, seedMatcher()).ingredient;
  const low = i.quantity ?? 0;
  const max = i.quantityMax ?? null;
  const got = max !== null && max > low ? [low, max] : low;
  const wrong: string[] = [];
  const quantityRight = Array.isArray(quantity)
    ? Array.isArray(got) && close(got[0], quantity[0]) && close(got[1], quantity[1])
    : !Array.isArray(got) && close(got, quantity);
  if (!quantityRight) wrong.push(`quantity ${JSON.stringify(got)}, not ${JSON.stringify(quantity)}`);
  if ((i.unit?.name ?? null) !== unit) wrong.push(`unit ${i.unit?.name ?? null}, not ${unit}`);
  const gotFood = i.food?.name ?? null;
  if (gotFood?.toLowerCase() !== food?.toLowerCase())
    wrong.push(`food ${gotFood}${i.food && i.food.id === undefined ? " (unknown)" : ""}, not ${food}`);
  if (noteKey(i.note) !== noteKey(expectedNote)) wrong.push(`note "${i.note}", not "${expectedNote}"`);
  return wrong;
}
