/**
 * Larder's unit-aware merging (beyond Mealie): a unit is convertible when it is a known metric or US
 * volume or mass unit — by its `standardUnit`/`standardQuantity` (v3 units carry them), else by its name,
 * plural or abbreviation. Factors take the unit to millilitres or grams.
 */
import { roundQuantity } from "../recipes/quantity.js";

export type Dimension = "volume" | "mass";
export interface Measure {
  dimension: Dimension;
  /** How many millilitres (volume) or grams (mass) one of the unit is. */
  factor: number;
}

const VOLUME: Record<string, number> = {
  ml: 1,
  mls: 1,
  milliliter: 1,
  millilitre: 1,
  milliliters: 1,
  millilitres: 1,
  cl: 10,
  centiliter: 10,
  centilitre: 10,
  dl: 100,
  deciliter: 100,
  decilitre: 100,
  l: 1000,
  liter: 1000,
  litre: 1000,
  liters: 1000,
  litres: 1000,
  tsp: 4.92892,
  teaspoon: 4.92892,
  teaspoons: 4.92892,
  tbsp: 14.7868,
  tablespoon: 14.7868,
  tablespoons: 14.7868,
  cup: 236.588,
  cups: 236.588,
  c: 236.588,
  "fl oz": 29.5735,
  floz: 29.5735,
  "fluid ounce": 29.5735,
  "fluid ounces": 29.5735,
  fluid_ounce: 29.5735,
  pint: 473.176,
  pints: 473.176,
  pt: 473.176,
  quart: 946.353,
  quarts: 946.353,
  qt: 946.353,
  gallon: 3785.41,
  gallons: 3785.41,
  gal: 3785.41,
};
const MASS: Record<string, number> = {
  mg: 0.001,
  milligram: 0.001,
  milligrams: 0.001,
  g: 1,
  gr: 1,
  gm: 1,
  gms: 1,
  gram: 1,
  grams: 1,
  gramme: 1,
  grammes: 1,
  kg: 1000,
  kgs: 1000,
  kilo: 1000,
  kilos: 1000,
  kilogram: 1000,
  kilograms: 1000,
  oz: 28.3495,
  ounce: 28.3495,
  ounces: 28.3495,
  lb: 453.592,
  lbs: 453.592,
  pound: 453.592,
  pounds: 453.592,
};

function lookup(name: string | null | undefined): Measure | null {
  if (!name) return null;
  const k = name.trim().toLowerCase().replace(/\.$/, "");
  if (k in VOLUME) return { dimension: "volume", factor: VOLUME[k] };
  if (k in MASS) return { dimension: "mass", factor: MASS[k] };
  return null;
}

export interface UnitLike {
  name: string;
  pluralName?: string | null;
  abbreviation?: string | null;
  pluralAbbreviation?: string | null;
  standardQuantity?: number | null;
  standardUnit?: string | null;
}

/** The unit's measure, or null when it is not a known volume or mass unit (a "clove", a "can"). */
export function measureOf(unit: UnitLike | null | undefined): Measure | null {
  if (!unit) return null;
  const std = lookup(unit.standardUnit);
  if (std && unit.standardQuantity && Number.isFinite(unit.standardQuantity) && unit.standardQuantity > 0) {
    return { dimension: std.dimension, factor: std.factor * unit.standardQuantity };
  }
  return (
    lookup(unit.abbreviation) ??
    lookup(unit.name) ??
    lookup(unit.pluralName) ??
    lookup(unit.pluralAbbreviation)
  );
}

/** `quantity` of `from` expressed in `to` (same dimension), rounded as quantities are stored. */
export function convert(quantity: number, from: Measure, to: Measure): number {
  return roundQuantity((quantity * from.factor) / to.factor);
}
