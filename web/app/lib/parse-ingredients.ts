/**
 * The editor's "parse ingredients": which rows to send, the text of each, and the parsed amounts,
 * units, foods and notes put back into the same rows (ids kept, so steps stay linked). The parser is a
 * local preference (spec §3: parser nlp), kept per browser.
 */
import { amountText, ingredientsOf, type Draft, type DraftIngredient, type NamedRef } from "./recipe-edit.js";

export const PARSERS = ["nlp", "brute", "openai"] as const;
export type ParserChoice = (typeof PARSERS)[number];
export const PARSER_KEY = "larder.ingredient-parser";

export function readParser(raw: string | null | undefined): ParserChoice {
  return PARSERS.includes(raw as ParserChoice) ? (raw as ParserChoice) : "nlp";
}

/** Rows still held as plain text (no food): their text, as a person would write the line. */
export function rowsToParse(d: Draft): { index: number; line: string }[] {
  return ingredientsOf(d).flatMap((ing, index) => {
    if (ing.food?.name) return [];
    const line = [amountText(ing.quantity), ing.unit?.name ?? "", ing.note ?? ""]
      .filter(Boolean)
      .join(" ")
      .trim();
    return line ? [{ index, line }] : [];
  });
}

export interface ParsedRow {
  quantity: number | null;
  unit: NamedRef | null;
  food: NamedRef | null;
  note: string;
}

/** The draft with each parsed row's fields replaced; titles, ids and links stay. */
export function applyParsed(
  d: Draft,
  rows: readonly { index: number; line: string }[],
  parsed: readonly ParsedRow[],
): Draft {
  const list: DraftIngredient[] = [...ingredientsOf(d)];
  rows.forEach(({ index }, i) => {
    const p = parsed[i];
    if (!p || !list[index]) return;
    list[index] = {
      ...list[index],
      quantity: p.quantity && p.quantity > 0 ? p.quantity : null,
      unit: p.unit?.name ? p.unit : null,
      food: p.food?.name ? p.food : null,
      note: p.note ?? "",
      // The line as written is kept, so nothing typed is lost to a wrong parse.
      originalText: (list[index].originalText as string | null | undefined) || rows[i].line,
    };
  });
  return { ...d, recipeIngredient: list };
}
