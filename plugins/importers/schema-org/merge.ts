/**
 * When the page's markup is trusted over its schema.org data (docs/decisions/0151). The schema stays
 * the source unless it is missing or clearly worse by one of these rules, each stated on the two lists
 * as text compared without case, spaces or punctuation:
 *
 * - **missing**: the schema has no items (or, for steps, none with a letter in it; for ingredients, one
 *   word where a list belongs: "Chicken"); the markup has some.
 * - **split**: both lists hold the same text, cut in different places — the schema cut a line at its
 *   commas ("250 g Rindfleisch" | "in Stücken"), or ran the lines together into one item (for steps,
 *   also behind the block's heading: "Bereiden: Verhit…"), or broke a step at its line ends. The page
 *   shows how it is meant to be cut — unless it is the page that ran ingredient lines together where
 *   the schema has more, nearly all starting with an amount.
 * - **headings**: the schema lists the page's group headings as ingredients ("For the sauce").
 * - **richer**: item for item, each markup line holds the schema's and most hold more — the schema
 *   dropped the amounts ("popping corn" where the page says "½ cup popping corn").
 * - **more**: the schema's items are the markup's, in order, and fewer than half of them (a list cut
 *   short; a few extra lines are headings, equipment or serving notes the schema rightly left out).
 *
 * And when the schema is kept, group headings that only the markup has are added to it (**groups**).
 */
import type { DomGroup, DomList } from "./dom.js";

export interface Picked {
  items: string[];
  /** Group headings by the position of their group's first item. */
  titles: Map<number, string>;
  /** The rule that chose the markup, or null when the schema was kept as it was. */
  rule: "missing" | "split" | "headings" | "richer" | "more" | "groups" | null;
}

export const textKey = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

function flatten(groups: DomGroup[]): { items: string[]; titles: Map<number, string> } {
  const items: string[] = [];
  const titles = new Map<number, string>();
  for (const g of groups) {
    if (g.title && g.items.length) titles.set(items.length, g.title);
    items.push(...g.items);
  }
  return { items, titles };
}

const joined = (list: readonly string[]) => textKey(list.join(""));
/** The most letters a heading in front of a schema's run-together steps may have ("instructions", "zubereitung"). */
const HEADING_KEY = 30;
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => textKey(x) === textKey(b[i]));

/** Whether every item of `a` is, in order, an item of `b` (which has more). */
function subsequence(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || a.length >= b.length) return false;
  let j = 0;
  for (const x of a) {
    const k = textKey(x);
    while (j < b.length && textKey(b[j]) !== k) j++;
    if (j === b.length) return false;
    j++;
  }
  return true;
}

/** Each markup line holds the schema's line, and most of them say more. */
function richer(schema: readonly string[], dom: readonly string[]): boolean {
  if (schema.length !== dom.length || schema.length === 0) return false;
  let longer = 0;
  for (let i = 0; i < schema.length; i++) {
    const s = textKey(schema[i]);
    const d = textKey(dom[i]);
    if (!s || !d.includes(s)) return false;
    if (d.length > s.length) longer++;
  }
  return longer * 2 > schema.length;
}

/** The ingredient list to keep: the schema's, or the markup's by one of the rules above. */
export function pickIngredients(
  schema: { items: string[]; titles: Map<number, string> },
  dom: DomList | null,
): Picked {
  const kept: Picked = { ...schema, rule: null };
  if (!dom) return kept;
  const d = flatten(dom.groups);
  if (d.items.length === 0) return kept;
  const use = (rule: Picked["rule"]): Picked => ({ ...d, rule });
  if (schema.items.length === 0 || aWordForAList(schema.items, d.items)) return use("missing");
  if (sameList(schema.items, d.items)) {
    if (schema.titles.size === 0 && d.titles.size > 0) return { ...schema, titles: d.titles, rule: "groups" };
    return kept;
  }
  if (joined(schema.items) === joined(d.items)) {
    // The page ran lines together that the schema lists one by one, each with its amount: the schema's cut.
    if (schema.items.length > d.items.length && mostStartWithAmounts(schema.items)) return kept;
    return use("split");
  }
  const withHeadings = d.items.flatMap((x, i) => (d.titles.has(i) ? [d.titles.get(i)!, x] : [x]));
  if (d.titles.size > 0 && sameList(schema.items, withHeadings)) return use("headings");
  if (richer(schema.items, d.items)) return use("richer");
  // Cut short, not merely shorter: pages add headings, equipment and serving lines to their lists.
  if (schema.items.length * 2 < d.items.length && subsequence(schema.items, d.items)) return use("more");
  return kept;
}

/** "DIPPING SAUCE:", "For the topping", "Für den Teig:" — a group's heading written as an ingredient line. */
const INGREDIENT_HEADING_LINE = /^(?:[^\d:]{2,40}:|for (?:the )?[\p{L} '-]{2,30})$/iu;
/** "DRESSING", "SALAD (serves 4)": a line in capitals with no amount, once its remarks in brackets are left out. */
const CAPITALS_LINE = /^[^\p{Ll}\d]*\p{Lu}{3,}[^\p{Ll}\d]*$/u;

export function isHeadingLine(line: string): boolean {
  return INGREDIENT_HEADING_LINE.test(line) || CAPITALS_LINE.test(line.replace(/\([^)]*\)/g, "").trim());
}

/** Share of lines starting with an amount above which a list reads as one ingredient a line. */
const AMOUNT_LINES = 0.75;

function mostStartWithAmounts(items: readonly string[]): boolean {
  const lines = items.filter((x) => !isHeadingLine(x));
  // An amount and words: "1" alone is a line cut at the comma of "1,5 tsp".
  const withAmount = lines.filter((x) => /^[\d½¼¾⅓⅔⅛⅜⅝⅞].*\p{L}/u.test(x.trim())).length;
  return lines.length > 0 && withAmount >= lines.length * AMOUNT_LINES;
}

/**
 * The schema's list is one word or three, without an amount, where the markup lists three lines or more:
 * a category put where the ingredients belong ("Chicken"), not a recipe's list.
 */
function aWordForAList(schema: readonly string[], dom: readonly string[]): boolean {
  return (
    schema.length === 1 &&
    dom.length >= 3 &&
    !/\d/.test(schema[0]) &&
    schema[0].trim().split(/\s+/).length <= 3
  );
}

/** The steps to keep, as texts with group headings: the schema's, or the markup's when missing or cut differently. */
export function pickSteps(schemaTexts: string[], dom: DomList | null): Picked {
  const kept: Picked = { items: schemaTexts, titles: new Map(), rule: null };
  if (!dom) return kept;
  const d = flatten(dom.groups);
  if (d.items.length === 0) return kept;
  // Steps without a letter in them ("[{", a JSON-LD string cut short by the page's own quotes) are none.
  if (!schemaTexts.some((t) => /\p{L}/u.test(t))) return { ...d, rule: "missing" };
  if (schemaTexts.length !== d.items.length && joined(schemaTexts) === joined(d.items))
    return { ...d, rule: "split" };
  // The schema ran the steps together behind their block's heading ("Bereiden: Verhit…"): the same
  // text with a few letters more in front, which the markup shows as a heading.
  const js = joined(schemaTexts);
  const jd = joined(d.items);
  if (
    d.items.length > schemaTexts.length &&
    js !== jd &&
    js.endsWith(jd) &&
    js.length - jd.length <= HEADING_KEY
  )
    return { ...d, rule: "split" };
  // The schema may hold the markup's group headings as steps of their own.
  const withHeadings = d.items.flatMap((x, i) => (d.titles.has(i) ? [d.titles.get(i)!, x] : [x]));
  if (
    d.titles.size &&
    schemaTexts.length !== withHeadings.length &&
    joined(schemaTexts) === joined(withHeadings)
  )
    return { ...d, rule: "split" };
  return kept;
}
