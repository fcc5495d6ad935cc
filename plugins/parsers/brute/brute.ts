/**
 * Mealie's rule-based ("brute") parser, re-implemented from its described behaviour
 * (mealie-api-notes §13): the first whitespace token is the amount (with a following fraction), the
 * next the unit, the rest the food; a trailing "(…)" or the text after the first comma is the note.
 * With no amount, a known unit among the first three tokens ("a stalk bell peppers") is taken as the unit.
 *
 * Unlike Mealie, the word after the amount is the unit only when it is a known one (the group's or a
 * built-in unit): "2 large eggs" is two eggs, large. Counting words open a line as in the nlp parser
 * ("half a dozen", "two"), and the food leaves "of", sizes and describing words as it does (decision 0231).
 */
import type { ParsedIngredientResult, VocabularyMatcher } from "../../../core/plugins/kinds.js";
import { UNICODE_FRACTIONS } from "../../../core/recipes/quantity.js";
import { rewriteAmounts } from "./amounts.js";
import { countedWords } from "./words.js";
import { cleanLine } from "../clean.js";
import { checkedUnit, isBuiltInUnit, nearBuiltInUnit, oneSlip } from "../known-units.js";
import { normaliseKey } from "../../../core/parsers/matcher.js";
import { measureOf } from "../../../core/shopping/units.js";
import { singular } from "../nlp/lexicon.js";
import { DESCRIBING, firstAlternative, namedPart, wordsBefore } from "../nlp/refine.js";
import { AMOUNT_FREE } from "../nlp/assemble.js";

export interface BruteParsed {
  amount: number;
  unit: string;
  food: string;
  note: string;
}

const VULGAR = UNICODE_FRACTIONS;

class NotAnAmount extends Error {}

/** `2`, `1.5`, `1,5`, `1/2`, `½`, `1½`; anything else is not an amount. */
export function parseAmount(token: string): number {
  const t = token.trim();
  if (/^\d+(?:[.,]\d+)?$/.test(t)) return Number(t.replace(",", "."));
  const frac = /^(\d+)\/(\d+)$/.exec(t);
  if (frac && Number(frac[2]) !== 0) return Number(frac[1]) / Number(frac[2]);
  const vulgar = /^(\d*)(\p{No})$/u.exec(t);
  if (vulgar && VULGAR[vulgar[2]] !== undefined) return Number(vulgar[1] || 0) + VULGAR[vulgar[2]];
  throw new NotAnAmount(t);
}

/** parseAmount would answer: checked without its exception, since most words are no amount. */
function isAmount(token: string): boolean {
  const t = token.trim();
  if (/^\d+(?:[.,]\d+)?$/.test(t)) return true;
  const frac = /^\d+\/(\d+)$/.exec(t);
  if (frac) return Number(frac[1]) !== 0;
  const vulgar = /^\d*(\p{No})$/u.exec(t);
  return vulgar !== null && VULGAR[vulgar[1]] !== undefined;
}

/** Food and note from the remaining tokens: a trailing bracketed group, else the text after a comma. */
function parseIngredient(tokens: readonly string[]): [string, string] {
  if (tokens.length === 0) return ["", ""];
  const last = tokens[tokens.length - 1];
  if (last.endsWith(")")) {
    if (!last.startsWith("(") && last.includes("(")) return withComma(tokens);
    let start = tokens.length - 1;
    while (!tokens[start].startsWith("(") && start !== 0) start--;
    if (start === 0) {
      // The whole rest is bracketed: keep it as the food rather than an empty one.
      if (!tokens[0].startsWith("(")) return withComma(tokens);
      return [tokens.join(" "), ""];
    }
    // "onion, diced (about 2 cups)": the comma parts the food from the note as well, unless brackets
    // follow it (Mealie's case "mango chunks, (2 large mangoes) (fresh or frozen)" keeps them in the food).
    const bracket = tokens.slice(start).join(" ").slice(1, -1);
    const [food, note] = withComma(tokens.slice(0, start));
    if (note.includes("(")) return [tokens.slice(0, start).join(" "), bracket];
    return [food, [note, bracket].filter(Boolean).join(", ")];
  }
  return withComma(tokens);
}

/**
 * "boneless, skinless chicken": a comma between describing words in front of the food lists them; it
 * ends no food. After the food ("shallots whole, peeled") it does.
 */
const listsDescriptions = (tokens: readonly string[], at: number) =>
  at + 1 < tokens.length &&
  tokens.slice(0, at + 2).every((t) => DESCRIBING.has(t.replace(/,$/, "").toLowerCase()));

function withComma(tokens: readonly string[]): [string, string] {
  let start = 0;
  while (start < tokens.length && (!tokens[start].endsWith(",") || listsDescriptions(tokens, start))) start++;
  if (start === tokens.length) return [tokens.join(" "), ""];
  return [
    tokens
      .slice(0, start + 1)
      .join(" ")
      .slice(0, -1),
    tokens.slice(start + 1).join(" "),
  ];
}

/** Units that hold an amount, whose size may stand before them ("400 g tin") or in brackets after them. */
const PACKS = new Set(
  "can tin jar package pkg packet pack bag box bottle carton container envelope stick block tub sachet punnet".split(
    " ",
  ),
);
const isPack = (t: string) => PACKS.has(singular(t.replace(/[,;]$/, "")));
/** A weight or volume: what measures a pack ("400 g tin"), and what a bracket after it restates. */
const isMeasure = (t: string) => measureOf({ name: t.replace(/\.$/, "") }) !== null;

/** Words that size the unit after them, not the food. */
const SIZE_OF_UNIT = new Set(
  "small medium large big little tiny long heaped heaping level rounded scant generous good whole lg med sm".split(
    " ",
  ),
);

/**
 * A pack's size right after the amount, for the note: "1 (14.5 oz) can", "3 15-ounce cans", "2 x 400 g
 * tins". Returns where the unit may start.
 */
function packSize(
  tokens: readonly string[],
  at: number,
  isUnit: (t: string) => boolean,
  size: string[],
): number {
  const t = tokens[at];
  if (t.startsWith("(")) {
    let end = at;
    while (end < tokens.length - 1 && !tokens[end].endsWith(")")) end++;
    if (end >= tokens.length - 1 || !tokens[end].endsWith(")")) return at;
    size.push(
      tokens
        .slice(at, end + 1)
        .join(" ")
        .slice(1, -1),
    );
    return end + 1;
  }
  const sized = /^\d+(?:[.,]\d+)?-(\p{L}+)$/u.exec(t);
  if (sized && isUnit(sized[1]) && at + 1 < tokens.length - 1) {
    size.push(t);
    return at + 1;
  }
  if (at + 2 < tokens.length && isPack(tokens[at + 2]) && isAmount(t) && isMeasure(tokens[at + 1])) {
    size.push(`${t} ${tokens[at + 1]}`);
    return at + 2;
  }
  if (/^[x×]$/i.test(t) && at + 3 < tokens.length && isAmount(tokens[at + 1]) && isUnit(tokens[at + 2])) {
    size.push(`${tokens[at + 1]} ${tokens[at + 2]}`);
    return at + 3;
  }
  return at;
}

/**
 * `misspelt`: the unit a word after the amount misspells (with the word after it, to tell a food's
 * first word), or null.
 */
export function brute(
  line: string,
  isUnit: (token: string) => boolean,
  misspelt: (token: string, next: string) => string | null = () => null,
): BruteParsed {
  // "1½" is two amounts written together; split them so the fraction is the second token.
  const text = line.replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/(\d)([½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅐⅛⅜⅝⅞⅑⅒])/g, "$1 $2");
  const tokens = text.split(/\s+/).filter(Boolean);
  let amount = 0,
    unit = "",
    food = "",
    note = "";
  if (tokens.length === 0) return { amount, unit, food, note };
  if (tokens.length === 1) return { amount, unit, food: tokens[0], note };

  if (isAmount(tokens[0])) {
    amount = parseAmount(tokens[0]);
    let i = 1;
    // "1 1/2", "1 ½": a fraction after the whole number; "2 14.5 oz cans" counts cans of a size.
    if (tokens.length > 2 && isAmount(tokens[1]) && parseAmount(tokens[1]) < 1) {
      amount += parseAmount(tokens[1]);
      i = 2;
    }
    if (tokens.length > i + 1) {
      const size: string[] = [];
      // "400 g tin", "7g sachet": one pack of that size.
      if (i === 1 && i + 2 < tokens.length && isPack(tokens[2]) && isMeasure(tokens[1])) {
        size.push(`${tokens[0]} ${tokens[1]}`);
        amount = 1;
        i = 2;
      }
      i = packSize(tokens, i, isUnit, size);
      // "1 large head romaine", "2 heaped tsp cumin": the size of a known unit.
      if (
        i + 2 < tokens.length &&
        SIZE_OF_UNIT.has(tokens[i].toLowerCase()) &&
        !isUnit(tokens[i]) &&
        isUnit(tokens[i + 1])
      )
        size.push(tokens[i++]);
      // A unit never ends with a comma, and is followed by the food.
      const letter = /^([Tt])\.?$/.exec(tokens[i] ?? "");
      if (i + 2 < tokens.length && /^(?:fl\.?|fluid)$/i.test(tokens[i]) && isUnit(tokens[i + 1])) {
        unit = `${tokens[i]} ${tokens[i + 1]}`;
        i += 2;
      } else if (letter && i + 1 < tokens.length) {
        // Cookbook shorthand, where the letter's case is the unit: "1 T butter", "2 t vanilla".
        unit = letter[1] === "T" ? "tbsp" : "tsp";
        i++;
      } else if (i + 1 < tokens.length && !tokens[i].endsWith(",")) {
        if (isUnit(tokens[i])) unit = tokens[i++];
        else {
          const meant = misspelt(tokens[i], tokens[i + 1]);
          if (meant) {
            unit = meant;
            i++;
          }
        }
      }
      // "1 cup + 2 tbsp milk", "1 cup plus 2 tbsp": an amount added, for the note.
      if (/^(?:\+|plus)$/i.test(tokens[i] ?? "") && i + 2 < tokens.length && isAmount(tokens[i + 1])) {
        const end = isUnit(tokens[i + 2]) && i + 3 < tokens.length ? i + 3 : i + 2;
        size.push(tokens.slice(i, end).join(" ").replace(/\.$/, ""));
        i = end;
      }
      [food, note] = parseIngredient(tokens.slice(i));
      note = [size.join(" "), note].filter(Boolean).join(", ");
    } else food = tokens.slice(i).join(" ");
  } else {
    // Not past a comma: "fresh mint, leaves stripped" has no unit.
    const comma = tokens.findIndex((t) => t.endsWith(","));
    const at = tokens.slice(0, comma >= 0 ? Math.min(comma, 3) : 3).findIndex((t) => isUnit(t));
    if (at >= 0 && at < tokens.length - 1) {
      unit = tokens[at];
      [food, note] = parseIngredient(tokens.slice(at + 1));
      // "pinch of salt", "large bunch of basil": one of the unit; a size before it is the note's.
      const before = tokens.slice(0, at).filter((t) => !/^(?:an?|the)$/i.test(t));
      if (before.every((t) => SIZE_OF_UNIT.has(t.toLowerCase())) && /^of$/i.test(tokens[at + 1])) amount = 1;
      note = [before.join(" "), note].filter(Boolean).join(", ");
    } else [food, note] = parseIngredient(tokens);
  }
  return { amount, unit, food: food.trim(), note: note.trim() };
}

/**
 * A list's bullet or checkbox in front of the line ("- 2 cups flour", "▢ 1 cup sugar", "[ ] 2 tbsp
 * butter"): Mealie's algorithm would take it for the first word and drop the amount after it.
 */
const BULLET = /^\s*(?:[-*•·▢☐□◦▪▫►‣⁃–—]|\[\s?[xX✓]?\s?\])(?:\s+|(?=\d))/u;

/** Sizes in front of the food go to the note, as the nlp parser tags them ("2 large eggs"). */
export const SIZES: ReadonlySet<string> = new Set(
  // With the abbreviations of recipe cards: "1 lg onion", "2 med carrots".
  "small medium large big huge jumbo extra-large medium-sized small-sized large-sized medium-size lg lrg med sm xl".split(
    " ",
  ),
);

/** A unit the group's vocabulary names exactly (its plural too), or a built-in one. */
function knownUnit(token: string, match: VocabularyMatcher): boolean {
  const t = token.replace(/[,;]$/, "");
  return !!(match.exactUnit(t) ?? match.exactUnit(singular(t))) || isBuiltInUnit(t);
}

/**
 * The unit a word misspells by one slip ("tablspoons", "teaspon", "ouncs": known-units.ts), the group's
 * own units first, unless the word is a food or begins one ("filet mignon") in the group's vocabulary.
 */
function misspeltUnit(token: string, next: string, match: VocabularyMatcher): string | null {
  const w = normaliseKey(token.replace(/[,;.]$/, ""));
  if (w.length < 5 || !/^\p{L}+$/u.test(w)) return null;
  const u = match.unit(w);
  const own = u
    ? [u.name, u.pluralName, u.abbreviation, u.pluralAbbreviation, ...(u.aliases ?? []).map((a) => a.name)]
        .filter((k): k is string => !!k)
        .map(normaliseKey)
        .find((k) => k.length >= 6 && oneSlip(w, k))
    : undefined;
  const meant = own ?? nearBuiltInUnit(w);
  if (meant === null) return null;
  const after = next.replace(/[,;.]$/, "");
  if (match.food(w) || match.exactFood(singular(w)) || match.food(`${w} ${after}`)) return null;
  return meant;
}

/** The words one of the amount-free phrases ends with: a cheap test before the phrases' own. */
const AMOUNT_FREE_WORD = new RegExp(
  `\\b(?:${[...new Set(AMOUNT_FREE.map((p) => p[p.length - 1]))].join("|")})\\s*$`,
  "i",
);
const AMOUNT_FREE_END = new RegExp(`\\s+(${AMOUNT_FREE.map((p) => p.join("\\s+")).join("|")})$`, "i");
const ABOUT = /^(?:about|approximately|approx\.?|roughly|around)\s+(.+)$/i;
const HEADING = /^((?:[\p{L}'’-]+\s+){0,2}[\p{L}'’-]+)\s*:\s+(?=\S)/u;
const ABOUT_FIRST = /^(about|approximately|approx\.?|roughly|around|~)\s*(?=[\d½⅓⅔¼¾⅛])/i;

/**
 * "a little salt, about 1/2 tsp", "salt, about 1 tsp": a line that opens with no amount gives it after the
 * comma. Only a note that is that amount (and its unit) alone is read so.
 */
function amountAfterComma(
  note: string,
  isUnit: (t: string) => boolean,
): { amount: number; unit: string; note: string } | null {
  const m = ABOUT.exec(note.trim());
  if (!m) return null;
  const words = m[1].split(/\s+/);
  if (!isAmount(words[0])) return null;
  let amount = parseAmount(words[0]);
  let at = 1;
  if (words[at] !== undefined && isAmount(words[at]) && parseAmount(words[at]) < 1)
    amount += parseAmount(words[at++]);
  const unit = words[at] !== undefined && isUnit(words[at]) ? words[at++] : "";
  return at === words.length ? { amount, unit, note: "" } : null;
}

/**
 * The unit a food's last word is when the words before it name the same food ("garlic cloves" is garlic
 * counted in cloves); not when the whole is another food ("cinnamon stick" is no stick of cinnamon).
 */
function unitAfterFood(text: string, match: VocabularyMatcher): { unit: string; food: string } | null {
  const words = text.split(/\s+/);
  if (words.length < 2) return null;
  const last = words[words.length - 1];
  if (!(match.exactUnit(last) ?? match.exactUnit(singular(last)))) return null;
  const rest = words.slice(0, -1).join(" ");
  const named = match.exactFood(rest);
  const whole = match.exactFood(text);
  return named && (!whole || whole.id === named.id) ? { unit: last, food: rest } : null;
}

/** Preparations written before the food, which the nlp parser's tagger sets apart ("chopped chives"). */
const PREPARED = new Set(
  `chopped minced diced sliced grated shredded crushed softened melted beaten sifted toasted roasted
  halved quartered cubed peeled trimmed torn mashed finely roughly coarsely thinly freshly lightly`.split(
    /\s+/,
  ),
);

/** The food after preparation words, when the rest names one exactly: "roughly chopped walnuts". */
function preparedPart(food: string, match: VocabularyMatcher): ReturnType<typeof namedPart> {
  const words = food.split(/\s+/);
  let k = 0;
  while (k < words.length - 1 && PREPARED.has(words[k].toLowerCase())) k++;
  if (k === 0) return null;
  const hit = match.exactFood(words.slice(k).join(" "));
  return hit ? { food: hit, before: words.slice(0, k).join(" ") } : null;
}

export function parseLine(line: string, match: VocabularyMatcher): ParsedIngredientResult {
  const isUnit = (t: string) => knownUnit(t, match);
  // A list's bullet before the line, and punctuation after it ("1 onion, chopped;"), are no words.
  const bare = cleanLine(line)
    .replace(BULLET, "")
    .replace(/\s*[,;:.]+\s*$/, "");
  // "Optional: 1 tsp chili flakes", "To serve: crusty bread": a heading of a word or three, for the note.
  const heading = bare.includes(":") ? HEADING.exec(bare) : null;
  const body = heading ? bare.slice(heading[0].length) : bare;
  // "About 2 quarts water": the amount after the word, the word for the note.
  const about = ABOUT_FIRST.exec(body);
  const counted = countedWords(about ? body.slice(about[0].length) : body, isUnit);
  if (about && about[1] !== "~") counted.note = [about[1], counted.note].filter(Boolean).join(" ");
  if (heading) counted.note = [heading[1], counted.note].filter(Boolean).join(", ");
  const { text, max } = rewriteAmounts(counted.text, isUnit);
  const b = brute(text, isUnit, (t, next) => misspeltUnit(t, next, match));
  const stated = b.amount === 0 && !b.unit ? amountAfterComma(b.note, isUnit) : null;
  if (stated) Object.assign(b, stated);
  const front = [counted.note];
  // "(4 tablespoons) butter", "onion (about 200 g)": an aside in the food, not after a comma as Mealie
  // keeps it, is the note's.
  const asides: string[] = [];
  const unbracketed = b.food.replace(/(^|[^,\s])\s*\(([^()]*)\)/g, (_m, pre: string, inner: string) => {
    asides.push(inner.trim());
    return pre;
  });
  // "Salt to taste": the phrase is the note's without a comma before it too.
  const later: string[] = [];
  const free = AMOUNT_FREE_WORD.test(unbracketed) ? AMOUNT_FREE_END.exec(unbracketed.trim()) : null;
  const foodAll = free && free.index > 0 ? unbracketed.trim().slice(0, free.index) : unbracketed;
  if (foodAll !== unbracketed) later.push(free![1]);
  // "1 cup of sugar", "a pinch of salt": "of" joined the unit to the food.
  const words = (foodAll.trim() || b.food).replace(/^of\s+(?=\S)/i, "").split(/\s+/);
  while (words.length > 1 && SIZES.has(words[0].toLowerCase().replace(/,$/, ""))) front.push(words.shift()!);
  let foodText = words.join(" ");
  // "1 c. sugar": the full stop of an abbreviation is no part of the unit's name.
  let unitWord = b.unit && !match.exactUnit(b.unit) ? b.unit.replace(/\.$/, "") : b.unit;
  // "2 garlic cloves", "4 bacon rashers": the unit written after the food it counts.
  const counter = unitWord ? null : unitAfterFood(foodText, match);
  if (counter) [unitWord, foodText] = [counter.unit, counter.food];
  const matched = match.ingredient(unitWord || null, foodText || null);
  matched.unit = checkedUnit(unitWord || null, matched.unit, match);
  let food = matched.food;
  if (food && food.id === undefined) {
    // "butter or margarine": the first, "or margarine" to the note, as the nlp parser has it.
    const alt = firstAlternative(foodText, match);
    if (alt?.hit) {
      food = { id: alt.hit.id, name: alt.hit.name };
      later.push(alt.rest);
    }
    // "4 boneless skinless chicken thighs", "roughly chopped walnuts": the named food, the words before it
    // to the note (less those in the food's name: "heavy whipping cream" is heavy cream).
    const text = alt?.first ?? foodText;
    const part = food.id === undefined ? (namedPart(text, match) ?? preparedPart(text, match)) : null;
    if (part) {
      food = { id: part.food.id, name: part.food.name };
      front.push(wordsBefore(part));
      if (alt) later.push(alt.rest);
    }
  }
  return {
    input: line,
    confidence: { average: null, comment: null, name: null, unit: null, quantity: null, food: null },
    ingredient: {
      quantity: b.amount,
      quantityMax: max,
      unit: matched.unit,
      food,
      note: [...front, ...later, ...asides, b.note].filter((s) => s.trim() !== "").join(", "),
    },
  };
}
