/**
 * Amounts written in words, rewritten as the number Mealie's algorithm reads before it runs (decision
 * 0231): counting words as the nlp parser reads them ("half a dozen eggs" → "6 eggs", "two cups" → "2
 * cups"), an article before a unit or a food ("a pinch of salt" → "1 pinch of salt"), and the fruit a juice
 * or zest is taken from ("zest of 2 limes" → "2 limes", "zest" for the note).
 */
import { countedAmount } from "../counted.js";
import { numberValue } from "../nlp/quantity.js";

const formatAmount = (n: number) => String(Math.round(n * 1000) / 1000);

/** After "a"/"an", no amount: "a few", "a little", "a bit of". */
const NO_AMOUNT = new Set(["few", "little", "bit", "couple", "lot", "touch", "dozen"]);

/**
 * "juice of", "finely grated zest and juice of", "the zest of", "Juice 1 lemon": what is taken from the
 * fruit (the amount after it says how many fruit).
 */
const FROM_FRUIT =
  /^((?:[\p{L}-]+\s+){0,4}?(?:juice|juiced|zest|zested|rind|peel|pulp|flesh|seeds)(?:\s+[\p{L}-]+){0,3}?)\s+of\s+(.+)$/iu;
/** "Juice 1 lemon", "zest 2 limes": the word alone, the amount right after it. */
const FROM_FRUIT_COUNTED = /^(juice|zest|rind|peel)\s+(?=[\d\p{No}])(.+)$/iu;

export interface Words {
  text: string;
  /** Words taken off the front for the note. */
  note: string;
}

export function countedWords(text: string, isUnit: (word: string) => boolean): Words {
  const fruit = FROM_FRUIT.exec(text.trim()) ?? FROM_FRUIT_COUNTED.exec(text.trim());
  if (fruit && !/^\d/.test(text.trim())) {
    const rest = countedWords(fruit[2], isUnit);
    if (/^[\d.\p{No}]/u.test(rest.text))
      return { text: rest.text, note: [fruit[1], rest.note].filter(Boolean).join(", ") };
  }
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const lower = tokens.map((t) => t.toLowerCase());
  const counted = countedAmount(lower);
  if (counted?.value === null)
    return { text: tokens.slice(counted.length).join(" "), note: tokens.slice(0, counted.length).join(" ") };
  if (counted)
    return { text: [formatAmount(counted.value), ...tokens.slice(counted.length)].join(" "), note: "" };
  if (tokens.length < 2) return { text, note: "" };
  // "a quarter cup", "a half teaspoon": the number word is the amount.
  if (/^an?$/.test(lower[0]) && /^(?:half|quarter)$/.test(lower[1]) && tokens.length > 2)
    return { text: [formatAmount(numberValue(lower[1]) ?? 1), ...tokens.slice(2)].join(" "), note: "" };
  // "a pinch of salt", "a generous knob of butter", "an onion": one.
  if (/^an?$/.test(lower[0]) && !NO_AMOUNT.has(lower[1]) && !isUnit(lower[0]))
    return { text: ["1", ...tokens.slice(1)].join(" "), note: "" };
  const word = /^\p{L}+$/u.test(lower[0]) ? numberValue(lower[0]) : null;
  if (word === null) return { text, note: "" };
  const skip = lower[0] === "half" && /^an?$/.test(lower[1]) && tokens.length > 2 ? 2 : 1;
  return { text: [formatAmount(word), ...tokens.slice(skip)].join(" "), note: "" };
}
