import { describe, expect, it } from "vitest";
import { convert, measureOf } from "./units.js";
import { mergeInto, mergeKey, normaliseNote } from "./merge.js";
import type { ShoppingItemRecord } from "../schemas/week.js";

const units: Record<
  string,
  { name: string; abbreviation?: string; standardQuantity?: number | null; standardUnit?: string | null }
> = {
  cup: { name: "cup" },
  ml: { name: "milliliter", abbreviation: "ml" },
  kg: { name: "kilogram", abbreviation: "kg" },
  clove: { name: "clove" },
  mug: { name: "mug", standardQuantity: 300, standardUnit: "ml" },
};
const byId = (id: string) => units[id] ?? null;
const item = (over: Partial<ShoppingItemRecord>): ShoppingItemRecord => ({
  id: over.id ?? "i",
  position: 0,
  checked: false,
  quantity: 1,
  note: "",
  foodId: null,
  unitId: null,
  labelId: null,
  extras: {},
  recipeReferences: [],
  createdAt: null,
  updatedAt: null,
  ...over,
});

describe("unit-aware merging", () => {
  it("knows metric and US volume and mass units by name, abbreviation or standard unit; others are unknown", () => {
    expect(measureOf(units.cup)).toEqual({ dimension: "volume", factor: 236.588 });
    expect(measureOf(units.kg)?.dimension).toBe("mass");
    expect(measureOf(units.mug)).toEqual({ dimension: "volume", factor: 300 });
    expect(measureOf(units.clove)).toBeNull();
    expect(convert(250, measureOf(units.ml)!, measureOf(units.cup)!)).toBeCloseTo(1.057, 3);
  });

  it("gives the same food in convertible units one key, and incompatible units different ones; checked items none", () => {
    const a = mergeKey(item({ foodId: "milk", unitId: "cup" }), byId);
    expect(mergeKey(item({ foodId: "milk", unitId: "ml" }), byId)).toBe(a);
    expect(mergeKey(item({ foodId: "milk", unitId: "kg" }), byId)).not.toBe(a);
    expect(mergeKey(item({ foodId: "milk", unitId: "clove" }), byId)).not.toBe(a);
    expect(mergeKey(item({ foodId: "milk", unitId: "cup", checked: true }), byId)).toBeNull();
    expect(mergeKey(item({ note: "  Fresh  Basil " }), byId)).toBe(
      mergeKey(item({ note: "fresh basil" }), byId),
    );
    expect(normaliseNote("Ａpple")).toBe("apple");
  });

  it("merges into the first item's unit, joins food notes without repeats and adds recipe scales", () => {
    const into = item({
      foodId: "milk",
      unitId: "cup",
      quantity: 1,
      note: "whole",
      recipeReferences: [{ id: "r1", recipeId: "R", recipeQuantity: 1, recipeScale: 1, recipeNote: null }],
    });
    const from = item({
      id: "j",
      foodId: "milk",
      unitId: "ml",
      quantity: 250,
      note: "Whole | cold",
      recipeReferences: [{ id: "r2", recipeId: "R", recipeQuantity: 1, recipeScale: 2, recipeNote: null }],
    });
    mergeInto(into, from, byId, () => "new");
    expect(into.unitId).toBe("cup");
    expect(into.quantity).toBeCloseTo(2.057, 3);
    expect(into.note).toBe("whole | cold");
    expect(into.recipeReferences).toEqual([
      { id: "r1", recipeId: "R", recipeQuantity: 1, recipeScale: 3, recipeNote: null },
    ]);
  });
});
