import { describe, expect, it } from "vitest";
import type { DocIngredient, DocStep } from "../doc.js";
import { packIngredients, packSteps, unpackIngredients, unpackSteps } from "./packed-parts.js";

const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const READ: DocIngredient = {
  title: null,
  quantity: 2,
  quantityMax: null,
  unit: "cup",
  food: "flour",
  referencedRecipe: null,
  referencedRecipeName: null,
  note: "sifted",
  originalText: null,
};

describe("packed lazy parts of the warm-start cache", () => {
  it("write an ingredient, step and note as the reader builds them as their values, and read them back whole", () => {
    const steps: DocStep[] = [{ title: "Bake", summary: null, text: "Bake.", ingredientRefs: [0] }];
    const notes = [{ title: "Tip", text: "Cool first." }];
    const packed = roundTrip(packIngredients([READ]));
    expect(packed).toEqual([[null, 2, null, "cup", "flour", null, null, "sifted", null]]);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify([READ]).length / 2);
    const back = unpackIngredients(packed);
    expect(JSON.stringify(back)).toBe(JSON.stringify([READ]));
    const [i, n] = roundTrip(packSteps(steps, notes)) as [unknown[], unknown[]];
    expect(JSON.stringify(unpackSteps(i, n))).toBe(JSON.stringify([steps, notes]));
  });

  it("keep an object of any other shape as it is, key order and missing keys included", () => {
    const { referencedRecipeName: _, ...missing } = READ;
    const { note, ...rest } = READ;
    const reordered = { note, ...rest };
    const extra = { ...READ, display: "2 cups flour" };
    const undefinedValue = { ...READ, originalText: undefined };
    const list = [missing, reordered, extra, undefinedValue, READ] as DocIngredient[];
    const back = unpackIngredients(roundTrip(packIngredients(list)));
    expect(JSON.stringify(back)).toBe(JSON.stringify(list));
    expect(back.map((o) => Object.keys(o))).toEqual(roundTrip(list).map((o) => Object.keys(o)));
  });

  it("refuse a packed entry with the wrong number of values rather than read it into the wrong keys", () => {
    expect(() => unpackIngredients([[null, 2, null]])).toThrow(/wrong number of values/);
    expect(() => unpackSteps([[null, "x"]], [])).toThrow(/wrong number of values/);
  });
});
