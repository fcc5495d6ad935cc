/**
 * Amounts written as counting words at a line's start, shared by the nlp and brute parsers (decision
 * 0231): "half a dozen eggs" is 6 eggs, not half an egg; "two dozen" 24; "a couple of" 2. "a few", "a
 * little" and "several" give no number: the line has no amount (Mealie's quantity 0) and the words stay in
 * the note, so a shopping list does not count a number the author never wrote.
 */
import { numberValue } from "./nlp/quantity.js";

export interface Counted {
  /** The amount, or null for a vague one ("a few"). */
  value: number | null;
  /** How many words the phrase takes, a following "of" included. */
  length: number;
}

const ARTICLE = new Set(["a", "an"]);
const DOZEN = new Set(["dozen", "dozens"]);
const VAGUE = new Set(["few", "little", "several"]);

const isProperFraction = (w: string) => /^\d+\/\d+$/.test(w) && (numberValue(w) ?? 1) < 1;

/** An amount before "dozen": "2", "1 1/2", "two", "half", "a", "a half"; its value and length. */
function leadingNumber(words: readonly string[]): { value: number; length: number } | null {
  let at = 0;
  if (ARTICLE.has(words[0]) && words[1] === "half") at = 1;
  const first = words[at];
  if (first === undefined) return null;
  if (ARTICLE.has(first)) return { value: 1, length: 1 };
  const value = DOZEN.has(first) ? null : numberValue(first);
  if (value === null) return null;
  if (/^\d+$/.test(first) && words[at + 1] !== undefined && isProperFraction(words[at + 1]))
    return { value: value + (numberValue(words[at + 1]) ?? 0), length: at + 2 };
  return { value: at === 1 ? 0.5 : value, length: at + 1 };
}

/** The counting phrase that opens these lower-case words, or null. Something must follow it. */
export function countedAmount(words: readonly string[]): Counted | null {
  const withOf = (value: number | null, length: number): Counted | null => {
    const end = words[length] === "of" ? length + 1 : length;
    return end < words.length ? { value, length: end } : null;
  };
  // "dozen eggs", "a dozen", "half a dozen", "a half dozen", "two dozen", "1 1/2 dozen".
  const n = DOZEN.has(words[0]) ? { value: 1, length: 0 } : leadingNumber(words);
  if (n) {
    let at = n.length;
    if (ARTICLE.has(words[at]) && n.value < 1) at++;
    if (DOZEN.has(words[at])) return withOf(n.value * 12, at + 1);
  }
  const start = ARTICLE.has(words[0]) ? 1 : 0;
  if (words[start] === "couple") return withOf(2, start + 1);
  if (VAGUE.has(words[start]) && (start === 1 || words[start] !== "little")) {
    const end = start + 1;
    return end < words.length ? { value: null, length: end } : null;
  }
  return null;
}
