/**
 * The ingredient `display` string of the v3 API (mealie-api-notes §5.3, §0.1): quantity + unit + food +
 * note, with Mealie's fraction rendering. The recipe's `settings.disableAmount` switches to the note-only
 * form. A range (`2-3 cloves`, Larder's extra) shows both bounds.
 */
import { formatDecimal, roundQuantity } from "./quantity.js";

export interface DisplayUnit {
  name: string;
  pluralName?: string | null;
  abbreviation?: string | null;
  pluralAbbreviation?: string | null;
  useAbbreviation?: boolean;
  /** False: the unit is measured in decimals (`0.5 kg`); default true. */
  fraction?: boolean;
}
export interface DisplayFood {
  name: string;
  pluralName?: string | null;
}
export interface DisplayIngredient {
  quantity: number | null;
  quantityMax?: number | null;
  unit: DisplayUnit | null;
  food: DisplayFood | null;
  note: string | null;
  /** Name of the linked sub-recipe; shown where the food would be. */
  recipeName?: string | null;
}

const SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉";
const digitsIn = (n: number, set: string): string => [...String(n)].map((c) => set[Number(c)]).join("");

/**
 * The closest fraction to `num/den` whose denominator is at most `maxDen` (the continued-fraction best
 * approximation, ties going to the last convergent), as integers.
 */
export function limitDenominator(num: number, den: number, maxDen: number): [number, number] {
  if (den <= maxDen) return [num, den];
  let [p0, q0, p1, q1] = [0, 1, 1, 0];
  let [n, d] = [num, den];
  for (;;) {
    const a = Math.floor(n / d);
    const q2 = q0 + a * q1;
    if (q2 > maxDen) break;
    [p0, q0, p1, q1] = [p1, q1, p0 + a * p1, q2];
    [n, d] = [d, n - a * d];
    if (d === 0) return [p1, q1];
  }
  const k = Math.floor((maxDen - q0) / q1);
  const [bn, bd] = [p0 + k * p1, q0 + k * q1];
  // Compare |p1/q1 - num/den| with |bn/bd - num/den| without floating error.
  const errLast = Math.abs(p1 * den - num * q1) * bd;
  const errBound = Math.abs(bn * den - num * bd) * q1;
  return errLast <= errBound ? [p1, q1] : [bn, bd];
}

/** Mealie's quantity text: `1 ¹/₂` (denominator ≤ 32), or a decimal for a unit with `fraction: false`. */
export function displayQuantity(q: number, unit: DisplayUnit | null): string {
  if (unit && unit.fraction === false) return formatDecimal(q);
  const thousandths = Math.round(roundQuantity(q) * 1000);
  const [n, d] = limitDenominator(thousandths, 1000, 32);
  const g = gcd(n, d);
  const [rn, rd] = [n / g, d / g];
  const whole = Math.floor(rn / rd);
  const rem = rn - whole * rd;
  if (rem === 0) return String(whole);
  const frac = `${digitsIn(rem, SUPERSCRIPT)}/${digitsIn(rd, SUBSCRIPT)}`;
  return whole === 0 ? frac : `${whole} ${frac}`;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return Math.abs(a) || 1;
}

function unitText(unit: DisplayUnit, plural: boolean): string {
  if (unit.useAbbreviation && unit.abbreviation) {
    return (plural && unit.pluralAbbreviation) || unit.abbreviation;
  }
  return (plural && unit.pluralName) || unit.name;
}

/** The `display` string of one ingredient; `disableAmount` is the recipe's setting. */
export function ingredientDisplay(ing: DisplayIngredient, disableAmount: boolean): string {
  const useFood = !disableAmount;
  const q = ing.quantity ?? 0;
  const max = ing.quantityMax ?? null;
  // Plural forms follow the larger bound of a range ("1-2 cups").
  const pluralQ = max ?? q;
  const parts: string[] = [];
  if (q && (useFood || q !== 1)) {
    const low = displayQuantity(q, ing.unit);
    parts.push(max === null ? low : `${low}-${displayQuantity(max, ing.unit)}`);
  }
  if (!useFood) {
    if (ing.note) parts.push(ing.note);
  } else {
    if (q && ing.unit) parts.push(unitText(ing.unit, pluralQ > 1));
    if (ing.food) parts.push((!q || pluralQ > 1 ? ing.food.pluralName : null) || ing.food.name);
    if (ing.recipeName) parts.push(ing.recipeName);
    if (ing.note) parts.push(ing.note);
  }
  return parts
    .filter((p) => p !== "")
    .join(" ")
    .trim();
}
