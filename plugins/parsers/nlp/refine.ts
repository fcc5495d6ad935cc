/**
 * The assembled fields checked against the group's vocabulary (decision 0228). The model labels words
 * the way its training data does, where a describing word belongs to the food ("boneless chicken
 * thighs"), a size to the unit ("heaped tablespoon"), an alternative to the food ("butter or
 * margarine") and an article or a number word to nothing that counts. Where the whole text matches
 * nothing, a part that matches exactly is taken and the other words go to the note, so nothing the
 * author wrote is lost; an exact match of the whole text always wins.
 */
import type { ParsedRef, ParserFood, VocabularyMatcher } from "../../../core/plugins/kinds.js";
import type { Assembled } from "./assemble.js";
import { SIZE_LEXICON, UNIT_LEXICON } from "./lexicon.js";
import { numberValue } from "./quantity.js";
import { checkedUnit } from "../known-units.js";

export interface Refined {
  quantity: number;
  quantityMax: number | null;
  unit: ParsedRef | null;
  food: ParsedRef | null;
  note: string;
}

/**
 * Words that describe a food without naming another one: dropped from the front of a food that matches
 * nothing, they leave the food ("ripe mangoes" → mango, note "ripe"). A longer named part needs none of
 * them ("Diamond Crystal kosher salt" → salt by its alias "kosher salt").
 */
export const DESCRIBING: ReadonlySet<string> = new Set(
  `fresh freshly dried frozen ripe boiling cold warm iced lukewarm tepid chilled room-temperature
  boneless skinless bone-in skin-on lean extra-lean unsalted salted unsweetened sweetened low-sodium
  reduced-sodium low-fat reduced-fat full-fat fat-free nonfat non-fat organic homemade store-bought pure
  good good-quality quality best fine coarse large small medium big extra-large jumbo raw plain runny mild
  day-old thick-cut thin-cut unwaxed wild semisweet semi-sweet bittersweet nonstick crusty light dark
  sharp mature seedless pitted shelled peeled cooked leftover canned tinned bottled free-range
  cold-pressed extra-virgin virgin natural whole floury waxy lg lrg med sm xl`.split(/\s+/),
);

/** Words that join two foods: a part after one of them names another food, not this one. */
const JOINING = new Set(["and", "&", "with", "or", "in", "of", "for", "plus", "on"]);

const ARTICLE = new Set(["a", "an"]);
/** "a few", "a little": no amount. */
const NO_AMOUNT_AFTER_ARTICLE = new Set(["few", "little", "bit", "couple", "lot", "touch"]);
const COUNTING = new Set("one two three four five six seven eight nine ten eleven twelve".split(" "));

const ref = (x: { id: string; name: string }): ParsedRef => ({ id: x.id, name: x.name });

/** The food text's last words that name a food exactly, and the words before them; null if none do. */
export function namedPart(
  food: string,
  match: VocabularyMatcher,
): { food: { id: string; name: string }; before: string } | null {
  const words = food.split(/\s+/);
  for (let k = 1; k < words.length; k++) {
    const dropped = words.slice(0, k);
    if (dropped.some((w) => JOINING.has(w.toLowerCase()))) continue;
    const tail = words.slice(k);
    if (tail.length < 2 && !dropped.every((w) => DESCRIBING.has(w.toLowerCase().replace(/[,;]$/, ""))))
      continue;
    const hit = match.exactFood(tail.join(" "));
    if (hit) return { food: hit, before: dropped.join(" ").replace(/[,;]$/, "") };
  }
  return null;
}

/**
 * The words written before a named food that are not in its name, for the note: "plain low-fat yogurt"
 * is the food "plain yogurt", low-fat; "heavy whipping cream" is heavy cream, whipping.
 */
export function wordsBefore(part: { food: { name: string }; before: string }): string {
  const named = new Set(part.food.name.toLowerCase().split(/\s+/));
  return part.before
    .split(/\s+/)
    .filter((w) => !named.has(w.toLowerCase().replace(/[,;]$/, "")))
    .join(" ");
}

/** "butter or margarine", "butter (or olive oil)": the first food, and "or …" for the note. */
function alternative(food: string): { first: string; rest: string; bracketed: boolean } | null {
  const m = /^(.+?)\s*(\(?)\s*\bor\s+(.+?)\)?$/i.exec(food);
  if (!m) return null;
  return { first: m[1].replace(/[,(]$/, "").trim(), rest: `or ${m[3].trim()}`, bracketed: m[2] === "(" };
}

/**
 * "butter or margarine", "honey (or agave syrup)": the first food, the rest ("or …") for the note, and
 * what the first names in the vocabulary, if anything.
 */
export function firstAlternative(
  food: string,
  match: VocabularyMatcher,
): { first: string; rest: string; hit: ParserFood | null } | null {
  const alt = alternative(food);
  if (!alt) return null;
  const restWords = alt.rest.split(/\s+/);
  // "peanut or vegetable oil": the first is peanut oil, if the vocabulary knows it.
  const shared =
    !alt.bracketed && !/\s/.test(alt.first) && restWords.length > 2
      ? `${alt.first} ${restWords[restWords.length - 1]}`
      : null;
  if (shared === null) return { ...alt, hit: match.food(alt.first) };
  const hit = match.exactFood(shared);
  if (hit) return { ...alt, hit };
  // "honey or maple syrup": two foods. But a lone first word may be a kind of the rest ("orange or yellow
  // pepper", "orange or red bell pepper", "pepper or smoked bacon"): only when the other is a food and its
  // words after the first are none ("syrup", not "bell pepper") is the first a food alone.
  const other = restWords.slice(1);
  const two = match.exactFood(other.join(" ")) && !match.exactFood(other.slice(1).join(" "));
  return { ...alt, hit: two ? match.food(alt.first) : null };
}

export function refine(tokens: readonly string[], a: Assembled, match: VocabularyMatcher): Refined {
  let quantity = a.quantity;
  const quantityMax = a.quantityMax;
  let unitText = a.unit;
  let foodText = a.food;
  const front: string[] = [];
  let note = a.note;
  const noAmount = quantity === 0 && quantityMax === null;
  const first = tokens[0]?.toLowerCase() ?? "";

  // "four chicken breasts": a number word the model took for the food's first word.
  if (noAmount && foodText && COUNTING.has(first)) {
    const [word, ...rest] = foodText.split(/\s+/);
    if (word.toLowerCase() === first && rest.length > 0) {
      quantity = numberValue(word) ?? 0;
      foodText = rest.join(" ");
    }
  }
  // "heaped tablespoon", "large clove", "quarter cup": the last word is the unit.
  if (unitText && /\s/.test(unitText.trim()) && !match.exactUnit(unitText)) {
    const words = unitText.trim().split(/\s+/);
    const last = words[words.length - 1];
    if (match.exactUnit(last)) {
      const before = words
        .slice(0, -1)
        .filter((w) => !ARTICLE.has(w.toLowerCase()) && w.toLowerCase() !== "of");
      const amount = before.length === 1 ? numberValue(before[0]) : null;
      if (amount !== null && noAmount) quantity = amount;
      else if (before.length > 0) front.push(before.join(" "));
      unitText = last;
    }
  }

  // "500 g minced beef": the model read "minced" as a preparation, but "minced beef" is a food's name.
  const prep = /^[\p{L}-]+/u.exec(note)?.[0];
  if (prep && foodText) {
    const joined = `${prep} ${foodText}`;
    const hit = match.exactFood(joined);
    if (hit && ` ${tokens.join(" ")} `.toLowerCase().includes(` ${joined.toLowerCase()} `)) {
      foodText = joined;
      note = note.slice(prep.length).replace(/^[\s,;]+/, "");
    }
  }

  const matched = match.ingredient(unitText, foodText);
  matched.unit = checkedUnit(unitText, matched.unit, match);
  // "a can of coconut milk", "an onion", "a large onion": one of the unit, or of the food named right
  // after the article (and its size). Not "a few sprigs", "a little oil", "a drizzle of oil" (no unit the
  // vocabulary knows).
  if (noAmount && quantity === 0 && ARTICLE.has(first) && tokens.length > 1) {
    const next = tokens[1].toLowerCase();
    const named = SIZE_LEXICON.has(next) ? (tokens[2]?.toLowerCase() ?? "") : next;
    const foodFirst = (foodText ?? "").split(/\s+/)[0].toLowerCase();
    if (
      !NO_AMOUNT_AFTER_ARTICLE.has(next) &&
      (matched.unit?.id !== undefined ||
        (unitText !== null && UNIT_LEXICON.has(unitText.toLowerCase())) ||
        (!unitText && foodFirst === named))
    ) {
      quantity = 1;
      note = note.replace(/^(?:an?\b[\s,]*)?(?:of\b[\s,]*)?/i, "");
    }
  }
  // "pinch of salt", "handful of watercress", "large bunch of basil": a line opening with a unit the
  // vocabulary knows, sized or not, counts one.
  let sized = 0;
  while (sized < tokens.length && SIZE_LEXICON.has(tokens[sized].toLowerCase())) sized++;
  if (
    noAmount &&
    quantity === 0 &&
    matched.unit?.id !== undefined &&
    tokens[sized + 1]?.toLowerCase() === "of" &&
    match.exactUnit(tokens[sized] ?? "")?.id === matched.unit.id
  )
    quantity = 1;
  let food = matched.food;
  if (foodText && food && food.id === undefined) {
    // "juice of half a lime": the article is no part of the food's name.
    let text = foodText.replace(/^(?:an?|the)\s+(?=\S)/i, "");
    if (text !== foodText) {
      const hit = match.food(text);
      if (hit) food = ref(hit);
    }
    const alt = food.id === undefined ? firstAlternative(text, match) : null;
    let altNote: string | null = null;
    if (alt) {
      text = alt.first;
      altNote = alt.rest;
      if (alt.hit) food = ref(alt.hit);
    }
    if (food.id === undefined) {
      const part = namedPart(text, match);
      if (part) {
        food = ref(part.food);
        front.push(wordsBefore(part));
      }
    }
    if (food.id !== undefined && altNote) front.push(altNote);
    else if (food.id === undefined) food = matched.food;
  }
  // "of" left at the front of a note ("splash of wine (optional)") joined words that are gone.
  note = note.replace(/^of\b[\s,]*/i, "");
  return {
    quantity,
    quantityMax,
    unit: matched.unit,
    food,
    note: [...front, note].filter((s) => s.trim() !== "").join(", "),
  };
}
