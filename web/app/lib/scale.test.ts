import { describe, expect, it } from "vitest";
// The replica must agree with core's display rule; the test may load core (it is never bundled).
// eslint-disable-next-line no-restricted-imports
import { ingredientDisplay } from "../../../core/recipes/display.js";
import {
  formatQuantity,
  ingredientParts,
  rangeMaxFromDisplay,
  scaleFor,
  scaledCount,
  type IngredientParts,
  type ScalableIngredient,
} from "./scale.js";

const join = (p: IngredientParts) =>
  [p.quantity, p.unit, p.food, p.recipe?.name ?? null, p.noteHtml].filter((x) => x).join(" ");

const cup = { name: "cup", pluralName: "cups", abbreviation: "c", useAbbreviation: false, fraction: true };
const gram = {
  name: "gram",
  pluralName: "grams",
  abbreviation: "g",
  pluralAbbreviation: "g",
  useAbbreviation: true,
  fraction: false,
};
const egg = { name: "egg", pluralName: "eggs" };

function ing(over: Partial<ScalableIngredient>): ScalableIngredient {
  return { quantity: null, quantityMax: null, unit: null, food: null, recipe: null, noteHtml: "", ...over };
}

describe("formatQuantity", () => {
  it("shows fractions with a denominator of at most 10 (spec §9)", () => {
    expect(formatQuantity(0.5)).toBe("¹/₂");
    expect(formatQuantity(1.5)).toBe("1 ¹/₂");
    expect(formatQuantity(0.333)).toBe("¹/₃");
    expect(formatQuantity(2.667)).toBe("2 ²/₃");
    expect(formatQuantity(0.125)).toBe("¹/₈");
    // 1/16 has no tenths-or-better fraction: the closest with a denominator <= 10 is 1/10.
    expect(formatQuantity(0.0625)).toBe("¹/₁₀");
    expect(formatQuantity(3)).toBe("3");
  });

  it("keeps decimals for decimal units and for amounts too small for a fraction", () => {
    expect(formatQuantity(0.75, { fraction: false })).toBe("0.75");
    expect(formatQuantity(0.02)).toBe("0.02");
  });

  it("never uses a denominator above 10, whatever the amount", () => {
    for (let i = 1; i < 500; i++) {
      const sub = /\/([₀-₉]+)$/.exec(formatQuantity(i / 137))?.[1];
      const den = sub ? Number([...sub].map((c) => "₀₁₂₃₄₅₆₇₈₉".indexOf(c)).join("")) : 1;
      expect(den).toBeLessThanOrEqual(10);
    }
  });
});

describe("ingredientParts", () => {
  it("matches core's display at scale 1", () => {
    const cases: ScalableIngredient[] = [
      ing({ quantity: 2, unit: cup, food: { name: "flour", pluralName: null }, noteHtml: "sifted" }),
      ing({ quantity: 1, unit: cup, food: { name: "sugar" } }),
      ing({ quantity: 0.5, unit: gram, food: { name: "salt" } }),
      ing({ quantity: 500, unit: gram, food: { name: "beet", pluralName: "beets" }, noteHtml: "cooked" }),
      ing({ quantity: 3, food: egg }),
      ing({ quantity: 1, food: egg }),
      ing({ quantity: 2, quantityMax: 3, food: { name: "clove", pluralName: "cloves" } }),
      ing({ quantity: null, food: { name: "basil", pluralName: "basil" }, noteHtml: "to serve" }),
      ing({ noteHtml: "Salt and pepper" }),
    ];
    for (const c of cases) {
      const core = ingredientDisplay(
        {
          quantity: c.quantity,
          quantityMax: c.quantityMax,
          unit: c.unit,
          food: c.food,
          note: c.noteHtml || null,
        },
        false,
      );
      expect(join(ingredientParts(c))).toBe(core);
    }
  });

  it("scales the amount and switches to plural forms", () => {
    const p = ingredientParts(ing({ quantity: 1, unit: cup, food: egg }), 1.5);
    expect(p).toMatchObject({ quantity: "1 ¹/₂", unit: "cups", food: "eggs" });
    const half = ingredientParts(ing({ quantity: 2, unit: cup, food: egg }), 0.25);
    expect(half).toMatchObject({ quantity: "¹/₂", unit: "cup", food: "egg" });
    const range = ingredientParts(ing({ quantity: 2, quantityMax: 3, food: egg }), 2);
    expect(range.quantity).toBe("4-6");
  });
});

describe("ranges and counts", () => {
  it("reads a range back from core's display", () => {
    expect(rangeMaxFromDisplay("2-3 cloves garlic", 2)).toBe(3);
    expect(rangeMaxFromDisplay("1 ¹/₂-2 cups milk", 1.5)).toBe(2);
    expect(rangeMaxFromDisplay("2 cups milk", 2)).toBeNull();
    expect(rangeMaxFromDisplay("2-in-1 mix", 2)).toBeNull();
    expect(rangeMaxFromDisplay("just a note", null)).toBeNull();
  });

  it("scales by servings", () => {
    expect(scaleFor(4, 6)).toBe(1.5);
    expect(scaleFor(0, 6)).toBe(1);
    expect(scaledCount(4, 1.5)).toBe("6");
    expect(scaledCount(3, 0.5)).toBe("1 ¹/₂");
  });
});
