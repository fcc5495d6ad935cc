/**
 * Scaling a recipe by servings, and the ingredient text at a scale (spec §9: fractions with a
 * denominator of at most 10). The fraction arithmetic is core's (core/recipes/display.ts, shared through
 * lib/pure-core.ts); scale.test.ts checks the text agrees with core's display at scale 1.
 * Pure functions: they run in the browser as the user changes the servings.
 */
import { limitDenominator, roundQuantity } from "./pure-core.js";

/** Spec §9: the largest denominator a scaled fraction is shown with. */
export const MAX_DENOMINATOR = 10;

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";
const toDigits = (n: number, set: string): string => [...String(n)].map((c) => set[Number(c)]).join("");

/** Rounds to 3 decimals, as core stores quantities (never -0). */
export const round3 = roundQuantity;
export { limitDenominator };

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a) || 1;
}

/** A decimal with at most 3 places and no trailing zeros. */
export function formatDecimal(q: number): string {
  const v = round3(q);
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/\.?0+$/, "");
}

/**
 * A quantity as text: `1 ¹/₂`, `³/₄`, `2`. Units measured in decimals (`fraction: false`) keep a
 * decimal. A small amount that no fraction up to tenths can show (0.02) stays a decimal, never "0".
 */
export function formatQuantity(q: number, opts: { fraction?: boolean; maxDen?: number } = {}): string {
  if (opts.fraction === false || q < 0) return formatDecimal(q);
  const thousandths = Math.round(round3(q) * 1000);
  const [n, d] = limitDenominator(thousandths, 1000, opts.maxDen ?? MAX_DENOMINATOR);
  const g = gcd(n, d);
  const [rn, rd] = [n / g, d / g];
  if (rn === 0) return formatDecimal(q);
  const whole = Math.floor(rn / rd);
  const rem = rn - whole * rd;
  if (rem === 0) return String(whole);
  const frac = `${toDigits(rem, SUPERSCRIPT)}/${toDigits(rd, SUBSCRIPT)}`;
  return whole === 0 ? frac : `${whole} ${frac}`;
}

/** Reads one quantity as core's display writes it (`2`, `1 ¹/₂`, `³/₄`, `0.5`); null when it is not one. */
export function readDisplayQuantity(text: string): number | null {
  const t = text.trim();
  const m = /^(?:(\d+(?:\.\d+)?)|(?:(\d+) )?([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\/([₀₁₂₃₄₅₆₇₈₉]+))$/.exec(t);
  if (!m) return null;
  if (m[1] !== undefined) return Number(m[1]);
  const num = Number([...m[3]].map((c) => SUPERSCRIPT.indexOf(c)).join(""));
  const den = Number([...m[4]].map((c) => SUBSCRIPT.indexOf(c)).join(""));
  if (!den) return null;
  return Number(m[2] ?? 0) + num / den;
}

const Q = String.raw`(?:\d+ [⁰¹²³⁴⁵⁶⁷⁸⁹]+/[₀₁₂₃₄₅₆₇₈₉]+|[⁰¹²³⁴⁵⁶⁷⁸⁹]+/[₀₁₂₃₄₅₆₇₈₉]+|\d+(?:\.\d+)?)`;
const RANGE_PREFIX = new RegExp(`^(${Q})-(${Q})(?:\\s|$)`);

/**
 * The upper bound of a range (`2-3 cloves`). The wire has no field for it (core keeps it in the
 * display and originalText), so it is read back from the display core wrote; null for a single amount.
 */
export function rangeMaxFromDisplay(display: string, quantity: number | null): number | null {
  if (!quantity) return null;
  const m = RANGE_PREFIX.exec(display.trim());
  if (!m) return null;
  const low = readDisplayQuantity(m[1]);
  const high = readDisplayQuantity(m[2]);
  if (low === null || high === null || Math.abs(low - quantity) > 0.01 || high <= low) return null;
  return high;
}

export interface ScaleUnit {
  name: string;
  pluralName?: string | null;
  abbreviation?: string | null;
  pluralAbbreviation?: string | null;
  useAbbreviation?: boolean;
  fraction?: boolean;
}

/** What the page knows of one ingredient; noteHtml is already sanitised on the server (spec §9). */
export interface ScalableIngredient {
  quantity: number | null;
  quantityMax: number | null;
  unit: ScaleUnit | null;
  food: { name: string; pluralName?: string | null } | null;
  /** A linked sub-recipe: shown where the food would be, as a link. */
  recipe: { name: string; slug: string } | null;
  noteHtml: string;
}

/** The ingredient's parts at a scale; the page joins them with spaces (the note is HTML, the rest text). */
export interface IngredientParts {
  quantity: string | null;
  unit: string | null;
  food: string | null;
  recipe: { name: string; slug: string } | null;
  noteHtml: string;
}

function unitText(unit: ScaleUnit, plural: boolean): string {
  if (unit.useAbbreviation && unit.abbreviation)
    return (plural && unit.pluralAbbreviation) || unit.abbreviation;
  return (plural && unit.pluralName) || unit.name;
}

/** core's ingredientDisplay for a structured ingredient, with the quantity multiplied by `scale`. */
export function ingredientParts(ing: ScalableIngredient, scale = 1): IngredientParts {
  const q = ing.quantity ? round3(ing.quantity * scale) : 0;
  const max = ing.quantityMax ? round3(ing.quantityMax * scale) : null;
  // Plural forms follow the larger bound of a range ("1-2 cups").
  const pluralQ = max ?? q;
  const fraction = ing.unit?.fraction;
  let quantity: string | null = null;
  if (q) {
    const low = formatQuantity(q, { fraction });
    quantity = max === null ? low : `${low}-${formatQuantity(max, { fraction })}`;
  }
  return {
    quantity,
    unit: q && ing.unit ? unitText(ing.unit, pluralQ > 1) : null,
    food: ing.food ? (!q || pluralQ > 1 ? ing.food.pluralName : null) || ing.food.name : null,
    recipe: ing.recipe,
    noteHtml: ing.noteHtml,
  };
}

/** The scale for a wanted number of servings; 1 when the recipe names none. */
export function scaleFor(baseServings: number, servings: number): number {
  if (!(baseServings > 0) || !(servings > 0)) return 1;
  return servings / baseServings;
}

/** A servings or yield count at a scale, as text (`6`, `1 ¹/₂`). */
export function scaledCount(base: number, scale: number): string {
  return formatQuantity(base * scale);
}
