/**
 * From labelled tokens to Mealie's fields: quantity (first QTY run; `1 1/2` merged, `2-3` a range),
 * unit (first UNIT run, singular), food (the NAME tokens), note (size, preparation, comment — and
 * purpose, which Mealie drops; decision 0041 — joined with ", ", parentheses removed), and the
 * confidence of each field (the mean of its tokens' marginals, 2 dp).
 */
import { LABEL_INDEX } from "./labels.js";
import { singular } from "./lexicon.js";
import { measureOf } from "../../../core/shopping/units.js";
import { numberValue, packSizeAt, readQuantity } from "./quantity.js";

const QTY = LABEL_INDEX.QTY,
  UNIT = LABEL_INDEX.UNIT,
  SIZE = LABEL_INDEX.SIZE,
  PREP = LABEL_INDEX.PREP,
  PURPOSE = LABEL_INDEX.PURPOSE,
  COMMENT = LABEL_INDEX.COMMENT,
  NAME = LABEL_INDEX.NAME,
  PUNC = LABEL_INDEX.PUNC;
/** Tokens set apart for the note as they are written (an alternative amount): no label of the model's. */
const NO_FIELD = -1;

export interface Assembled {
  quantity: number;
  quantityMax: number | null;
  unit: string | null;
  food: string | null;
  note: string;
  confidence: {
    average: number | null;
    comment: number | null;
    name: number | null;
    unit: number | null;
    quantity: number | null;
    food: number | null;
  };
}

const NO_SPACE_BEFORE = new Set([",", ".", ";", ":", "!", "?", ")", "]", "%", "'", "’"]);
const NO_SPACE_AFTER = new Set(["(", "["]);
const isNumber = (t: string) => /^\d/.test(t);

/** Tokens back to text: punctuation hugs its word, `3/4-inch` becomes `3/4 inch` as in Mealie's output. */
export function joinTokens(tokens: readonly string[]): string {
  let out = "";
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === "-" && i > 0 && i + 1 < tokens.length) {
      if (isNumber(tokens[i - 1]) && isNumber(tokens[i + 1])) {
        out += "-";
        i++;
        out += tokens[i];
        continue;
      }
      if (isNumber(tokens[i - 1])) continue;
    }
    if (out === "" || NO_SPACE_BEFORE.has(t) || NO_SPACE_AFTER.has(tokens[i - 1])) out += t;
    else out += " " + t;
  }
  return out;
}

/**
 * The text of the tokens carrying one of `labels`: punctuation between two of them is kept, and
 * punctuation at either end dropped.
 */
function fieldText(tokens: readonly string[], labels: ArrayLike<number>, want: ReadonlySet<number>): string {
  return pickedText(tokens, labels, (i) => want.has(labels[i]));
}

/**
 * The text of the tokens `wanted` picks, with the punctuation between two of them; a bracket the
 * picked text opens is closed when the line closes it right after ("chicken thighs (bone-in)"), and
 * dropped otherwise.
 */
function pickedText(
  tokens: readonly string[],
  labels: ArrayLike<number>,
  wanted: (i: number) => boolean,
): string {
  const picked: string[] = [];
  let lastWanted = -1;
  for (let i = 0; i < tokens.length; i++) {
    if (wanted(i)) {
      if (lastWanted >= 0 && lastWanted < i - 1) {
        // Keep the punctuation between two wanted tokens when nothing else lies between them.
        let onlyPunc = true;
        for (let j = lastWanted + 1; j < i; j++) if (labels[j] !== PUNC) onlyPunc = false;
        if (onlyPunc) for (let j = lastWanted + 1; j < i; j++) picked.push(tokens[j]);
      }
      picked.push(tokens[i]);
      lastWanted = i;
    }
  }
  if (picked.length === 0) return "";
  let open = 0;
  for (const t of picked)
    if (t === "(") open++;
    else if (t === ")" && open > 0) open--;
  if (open > 0 && tokens[lastWanted + 1] === ")") picked.push(")");
  else
    for (let i = picked.length - 1; i >= 0 && open > 0; i--) {
      if (picked[i] !== "(") continue;
      picked.splice(i, 1);
      open--;
    }
  return joinTokens(picked)
    .replace(/^[\s,.;:)\]/-]+/, "")
    .replace(/[\s,;:(\[/-]+$/, "");
}

/** Whether each token sits inside brackets: "1 (14 oz) can" has its can's size there, not its amount. */
function bracketed(tokens: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t === "(" || t === "[") depth++;
    out.push(depth > 0);
    if ((t === ")" || t === "]") && depth > 0) depth--;
  }
  return out;
}

/** [start, end) of the first run of `label`, preferring one outside brackets; [n, n] when there is none. */
function firstRun(
  labels: ArrayLike<number>,
  label: number,
  inBrackets: readonly boolean[],
): [number, number] {
  const n = labels.length;
  let fallback: [number, number] | null = null;
  for (let i = 0; i < n; i++) {
    if (labels[i] !== label) continue;
    let end = i;
    while (end < n && labels[end] === label) end++;
    if (!inBrackets[i]) return [i, end];
    fallback ??= [i, end];
    i = end;
  }
  return fallback ?? [n, n];
}

/**
 * Words a note would hold alone after the fields took the rest: "a pinch of salt" leaves "a of"; "plus"
 * joins an amount, and "about" announces one the note leaves out ("(about 1 cup)", an equivalent).
 */
const FILLER = /^(?:(?:a|an|of|the|some|plus|about|approx\.?|approximately|roughly|around)\s*)+$/i;

const UNSINGULAR = new Set(["tbs", "ts", "gms", "lbs"]);
/** Units that hold an amount, whose size may follow in brackets. */
const PACKS = new Set(
  "can tin jar package pkg packet pack bag box bottle carton container envelope stick block tub sachet".split(
    " ",
  ),
);
/** Cookbook shorthand, where the letter's case is the unit: "1 T butter", "2 t. vanilla". */
const LETTER_UNITS = new Map([
  ["T", "tbsp"],
  ["t", "tsp"],
]);

function unitText(run: readonly string[]): string {
  const letter = run.length === 1 ? LETTER_UNITS.get(run[0]) : undefined;
  if (letter) return letter;
  return joinTokens(
    run.map((t, i) =>
      i === run.length - 1 && !UNSINGULAR.has(t.toLowerCase()) && /\p{L}{3,}s$/u.test(t) ? singular(t) : t,
    ),
  );
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function meanOf(
  labels: ArrayLike<number>,
  conf: ArrayLike<number>,
  want: ReadonlySet<number>,
): number | null {
  let s = 0,
    n = 0;
  for (let i = 0; i < labels.length; i++)
    if (want.has(labels[i])) {
      s += conf[i];
      n++;
    }
  return n === 0 ? null : round2(s / n);
}

const NOTE_LABELS = new Set([SIZE, PREP, COMMENT, PURPOSE]);
const NOTE_PARTS = [SIZE, PREP, COMMENT, PURPOSE].map((l) => new Set([l]));
const NAME_SET = new Set([NAME]);
const QTY_SET = new Set([QTY]);
const UNIT_SET = new Set([UNIT]);

/**
 * Preparations that make a different product, kept with the food when they directly precede it: ground
 * pepper and whole peppercorns are different things to buy (Mealie's case "ground black pepper"), while
 * "chopped onion" is an onion, chopped. The training data labels "ground" both ways.
 */
const PRODUCT_PREP = new Set(["ground"]);

function withProductPreps(tokens: readonly string[], labels: ArrayLike<number>): ArrayLike<number> {
  let out: number[] | null = null;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (
      labels[i] === PREP &&
      labels[i + 1] === NAME &&
      PRODUCT_PREP.has(tokens[i].toLowerCase()) &&
      (i === 0 || labels[i - 1] !== PREP)
    ) {
      out ??= Array.from(labels);
      out[i] = NAME;
    }
  }
  return out ?? labels;
}

/**
 * Phrases that leave the amount to the cook, a comment wherever they stand. The training data writes "to
 * taste" and "as needed" after the food; many Indian recipe sites write "as required" or "as per taste"
 * and put it first ("As required salt"), which the model read as part of the food's name (decision 0225).
 */
export const AMOUNT_FREE: readonly (readonly string[])[] = [
  "as required",
  "as needed",
  "as per taste",
  "as per your taste",
  "as per requirement",
  "as per need",
  "as per needed",
  "according to taste",
  "to taste",
  "as desired",
  "if required",
  "if needed",
].map((p) => p.split(" "));

/**
 * "nos", "no." and "numbers" after an amount say it counts pieces ("2 Nos Onion"): no unit, no food word.
 * A lone "T" or "t" there is a tablespoon or a teaspoon (LETTER_UNITS).
 */
const COUNT_WORDS = new Set(["nos", "no", "number", "numbers", "nr"]);

function withCueWords(tokens: readonly string[], labels: ArrayLike<number>): ArrayLike<number> {
  let out: number[] | null = null;
  const lower = tokens.map((t) => t.toLowerCase());
  for (let i = 0; i < tokens.length; i++) {
    for (const phrase of AMOUNT_FREE) {
      if (phrase.some((w, k) => lower[i + k] !== w)) continue;
      out ??= Array.from(labels);
      for (let k = 0; k < phrase.length; k++) out[i + k] = COMMENT;
      i += phrase.length - 1;
      break;
    }
    const w = lower[i];
    if (i > 0 && labels[i - 1] === QTY && COUNT_WORDS.has(w) && (w !== "no" || tokens[i + 1] === ".")) {
      out ??= Array.from(labels);
      out[i] = PUNC;
      if (tokens[i + 1] === ".") out[i + 1] = PUNC;
    } else if (i > 0 && labels[i - 1] === QTY && LETTER_UNITS.has(tokens[i]) && i + 1 < tokens.length) {
      out ??= Array.from(labels);
      out[i] = UNIT;
      if (tokens[i + 1] === ".") out[i + 1] = PUNC;
    }
  }
  return out ?? labels;
}

/**
 * A weight or volume, the words that measure a pack where the pack's own word ("can", "bag") names it:
 * the units the shopping list converts (core/shopping/units.ts), and "fl" of "fl oz".
 */
const isMeasure = (t: string) => t.toLowerCase() === "fl" || measureOf({ name: t }) !== null;

/** Whether a unit run is a measure followed by a pack: "g can", "fl oz bottle", not "fl oz" or "heaping cup". */
function isPackAfterMeasure(tokens: readonly string[], from: number, to: number): boolean {
  for (let i = from; i < to - 1; i++) if (!isMeasure(tokens[i])) return false;
  return !isMeasure(tokens[to - 1]);
}

/**
 * "dried thyme or a handful of fresh leaves": the model ends the food with "or" and makes the other a
 * comment; the "or" belongs to the comment.
 */
function withDanglingJoin(tokens: readonly string[], labels: ArrayLike<number>): ArrayLike<number> {
  let last = -1;
  for (let i = 0; i < labels.length; i++) if (labels[i] === NAME) last = i;
  if (last < 1 || labels[last + 1] !== COMMENT || !/^(?:or|and|&)$/i.test(tokens[last])) return labels;
  if (labels[last - 1] !== NAME) return labels;
  const out = Array.from(labels);
  out[last] = COMMENT;
  return out;
}

/** Words that open an amount given besides the line's own: "about 1/4 tsp", "or 2 tbsp". */
const ALTERNATIVE_CUE = /^(?:about|approximately|approx|roughly|around|or)$/i;
const ARTICLES = /^an?$/i;

/**
 * "a good pinch of salt, about 1/4 tsp", "1 onion, about 200 g", "a splash of milk, or 2 tbsp": after a
 * comma, an amount introduced by "about", "approximately" or "or" restates or replaces the amount the
 * line opened with, which stays the line's. Returns the clause's [start, end): up to the end of the
 * line, or to the comma before a part that names a food ("250g fresh, or 200g dried, ribbon pasta").
 * Null when there is none, or when the line names no food or gives no amount before the comma ("salt,
 * about 1 tsp" gives its amount there; "6 sheets, about 75g lasagne" its food). An amount before the
 * comma is a number or a unit the model tagged, or an article before a word other than a comment's ("a
 * large onion", not "a little salt"). A comma inside brackets opens nothing: "1 can (15 ounces, or 425
 * g)" is a pack's size.
 */
function alternativeAmount(tokens: readonly string[], labels: ArrayLike<number>): [number, number] | null {
  const n = tokens.length;
  let inBrackets: boolean[] | null = null;
  for (let c = 1; c + 2 < n; c++) {
    if (tokens[c] !== "," || !ALTERNATIVE_CUE.test(tokens[c + 1])) continue;
    inBrackets ??= bracketed(tokens);
    if (inBrackets[c]) continue;
    let at = c + 2;
    if (tokens[at] === ".") at++;
    if (at >= n || (labels[at] !== QTY && numberValue(tokens[at]) === null)) continue;
    let given = ARTICLES.test(tokens[0]) && labels[1] !== COMMENT && labels[1] !== PUNC;
    let named = false;
    for (let i = 0; i < c; i++) {
      given ||= labels[i] === QTY || labels[i] === UNIT;
      named ||= labels[i] === NAME;
    }
    if (!given || !named) return null;
    const outside = inBrackets;
    const partEnd = (from: number) => {
      let i = from;
      while (i < n && !((tokens[i] === "," || tokens[i] === ";") && !outside[i])) i++;
      return i;
    };
    let end = partEnd(at);
    while (end < n) {
      const next = partEnd(end + 1);
      let food = false;
      for (let i = end + 1; i < next && !food; i++) food = labels[i] === NAME;
      if (food) break;
      end = next;
    }
    return [c + 1, end];
  }
  return null;
}

/**
 * "2 x 390g cartons", "1 x 400g/14oz can": the pack after the size (and the size's equivalent after a
 * slash) is the unit, whatever the model made of it. Returns the pack's [start, end), or null when no
 * pack follows.
 */
function packAfterSize(
  tokens: readonly string[],
  labels: ArrayLike<number>,
  from: number,
): [number, number] | null {
  let k = from;
  if (tokens[k] === "/") {
    k++;
    while (k < tokens.length && (labels[k] === QTY || (labels[k] === UNIT && isMeasure(tokens[k])))) k++;
    if (k === from + 1) return null;
  }
  return k < tokens.length && PACKS.has(singular(tokens[k])) ? [k, k + 1] : null;
}

export function assemble(
  tokens: readonly string[],
  tagged: ArrayLike<number>,
  conf: ArrayLike<number>,
): Assembled {
  let labels = withDanglingJoin(tokens, withProductPreps(tokens, withCueWords(tokens, tagged)));
  // The alternative amount is the note's, whole: no field reads its number, unit or words, nor joins
  // the words on either side of it across it (no label's, not even punctuation's).
  const alternative = alternativeAmount(tokens, labels);
  if (alternative) {
    const out = Array.from(labels);
    out.fill(NO_FIELD, ...alternative);
    labels = out;
  }
  const inBrackets = bracketed(tokens);
  const n = tokens.length;
  let [q, qEnd] = firstRun(labels, QTY, inBrackets);
  const firstName = Array.from(labels).indexOf(NAME);
  // An amount only in brackets after the food is an aside ("salt, to taste (I use about 1 tsp)"): the
  // line gives no amount, and the aside stays in the note.
  // "Bay leaves (about 20)" counts them, and keeps its amount.
  let asideAfterFood = false;
  if (q < n && inBrackets[q] && firstName >= 0 && firstName < q)
    for (let i = qEnd; i < n && inBrackets[i] && !asideAfterFood; i++) asideAfterFood = labels[i] === UNIT;
  if (asideAfterFood) q = qEnd = n;
  const qRun = tokens.slice(q, qEnd);
  let quantity = readQuantity(qRun);
  let [u, uEnd] = firstRun(labels, UNIT, inBrackets);
  // A unit only in brackets after the food weighs it ("3 eggs (150 g)"): no unit of the amount.
  if (u < n && inBrackets[u] && firstName >= 0 && firstName < u) u = uEnd = n;
  // A unit only in brackets right after the amount is a pack's size ("1 (15 oz) tomato sauce"): one
  // pack, its size kept in the note, not one ounce.
  let packBracketEnd = -1;
  if (u < n && inBrackets[u] && q < qEnd && tokens[qEnd] === "(") {
    packBracketEnd = qEnd;
    while (packBracketEnd < n && inBrackets[packBracketEnd]) packBracketEnd++;
    u = uEnd = n;
  }
  // Packs counted, then their size ("2 x 400g tins", "1 12-ounce bag"): the size's number and the unit
  // words after it are the note's first part, the pack (the unit run's last word, if it has more) the unit.
  let packSize = "";
  const sizeAt = packSizeAt(qRun);
  if (sizeAt >= 0) {
    const sizeTokens = qRun.slice(sizeAt);
    let next = qEnd;
    while (next < u && tokens[next] === "-") next++;
    if (u < n && next === u && !inBrackets[u]) {
      const sizeUnitEnd = uEnd - u >= 2 ? uEnd - 1 : uEnd;
      sizeTokens.push(...tokens.slice(u, sizeUnitEnd));
      u = sizeUnitEnd;
      const pack = u === uEnd ? packAfterSize(tokens, labels, uEnd) : null;
      if (pack) {
        labels = Array.from(labels);
        (labels as number[])[pack[0]] = UNIT;
      }
      if (u === uEnd) [u, uEnd] = pack ?? [n, n];
    }
    packSize = joinTokens(sizeTokens);
  } else if (
    quantity &&
    quantity.max === null &&
    (u === qEnd || (u === qEnd + 1 && tokens[qEnd] === "-")) &&
    uEnd - u >= 2 &&
    isPackAfterMeasure(tokens, u, uEnd)
  ) {
    // One pack named by its size ("a 400g can", "400g can"): one can, its size in the note.
    packSize = joinTokens([...qRun, ...tokens.slice(u, uEnd - 1)]);
    quantity = { value: 1, max: null };
    u = uEnd - 1;
  }
  const unitRun = tokens.slice(u, uEnd);

  const food = fieldText(tokens, labels, NAME_SET);
  const notes: string[] = [];
  // A second amount is the note's first part, the fields holding one: one added ("1 cup + 2 tbsp",
  // "plus 2 tablespoons"), and the size in brackets before the unit it measures ("1 (14 oz) can"). An
  // equivalent ("2 tablespoons (30ml)", "500ml/18fl oz") is left out, as Mealie's parser leaves it.
  if (packSize !== "") notes.push(packSize);
  // Brackets before this index are kept: a size before the unit it measures, or a pack's size.
  const keptBracketsBefore = u < n && !inBrackets[u] ? u : packBracketEnd;
  // And the brackets right after a pack's word, its size: "2 cans (15 oz each)", "1 pkg (8 oz)".
  let packSizeAfter = -1;
  if (uEnd > u && tokens[uEnd] === "(" && PACKS.has(singular(tokens[uEnd - 1]))) {
    packSizeAfter = uEnd;
    while (packSizeAfter < n && inBrackets[packSizeAfter]) packSizeAfter++;
  }
  const keptBracket = (i: number) =>
    inBrackets[i] && (i < keptBracketsBefore || (i >= uEnd && i < packSizeAfter) || asideAfterFood);
  const extra = (i: number) =>
    (labels[i] === QTY && (i < q || i >= qEnd)) || (labels[i] === UNIT && (i < u || i >= uEnd));
  const kept = new Array<boolean>(n).fill(false);
  let joint: string | null = null;
  for (let i = 0, keep = false; i < n; i++) {
    if (!extra(i)) continue;
    if (i === 0 || !extra(i - 1)) {
      const before = i > 0 ? tokens[i - 1] : "";
      const added = before === "+" || /^plus$/i.test(before);
      keep = added || keptBracket(i);
      if (keep && joint === null) joint = added ? before : "";
    }
    kept[i] = keep;
  }
  const amount = pickedText(tokens, labels, (i) => kept[i]);
  const amountNote = amount === "" ? "" : joint ? `${joint} ${amount}` : amount;
  if (amountNote !== "" && !asideAfterFood) notes.push(amountNote);
  for (const set of NOTE_PARTS) {
    // "A few sprigs of parsley": the "of" joined the comment to words that are now other fields; "a
    // little salt, about 1/2 tsp": the "about" announced the amount the fields took. Not "roughly" nor
    // "approximately", which also follow what they qualify ("chopped roughly").
    const text = fieldText(tokens, labels, set).replace(/(\S)\s+(?:of|about)$/i, "$1");
    if (text !== "" && !FILLER.test(text)) notes.push(text);
  }
  if (amountNote !== "" && asideAfterFood) notes.push(amountNote);
  if (alternative) notes.push(joinTokens(tokens.slice(...alternative)));
  const note = notes.join(", ").replace(/[()]/g, "").replace(/\s+/g, " ").trim();

  const confidence = {
    quantity: meanOf(labels, conf, QTY_SET),
    unit: meanOf(labels, conf, UNIT_SET),
    name: meanOf(labels, conf, NAME_SET),
    comment: meanOf(labels, conf, NOTE_LABELS),
  };
  const present = Object.values(confidence).filter((v): v is number => v !== null);
  return {
    quantity: quantity?.value ?? 0,
    quantityMax: quantity?.max ?? null,
    unit: unitRun.length ? unitText(unitRun) : null,
    food: food || null,
    note,
    confidence: {
      average: present.length ? round2(present.reduce((a, b) => a + b, 0) / present.length) : null,
      comment: confidence.comment,
      name: confidence.name,
      unit: confidence.unit,
      quantity: confidence.quantity,
      food: confidence.name,
    },
  };
}
