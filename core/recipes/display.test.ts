import { describe, expect, it } from "vitest";
import { displayQuantity, ingredientDisplay, limitDenominator } from "./display.js";

const tablespoon = {
  name: "tablespoon",
  pluralName: "tablespoons",
  abbreviation: "tbsp",
  useAbbreviation: false,
  fraction: true,
};
const choppedOnion = { name: "chopped onion", pluralName: "chopped onions" };

describe("ingredientDisplay (mealie-api-notes §5.3 examples)", () => {
  it("renders 1.5 tablespoons with a superscript fraction and plural unit and food", () => {
    const d = ingredientDisplay(
      { quantity: 1.5, unit: tablespoon, food: choppedOnion, note: "very thin" },
      false,
    );
    expect(d).toBe("1 ¹/₂ tablespoons chopped onions very thin");
  });
  it("renders a decimal unit with its abbreviation", () => {
    const unit = { name: "tablespoon", abbreviation: "tbsp", useAbbreviation: true, fraction: false };
    const d = ingredientDisplay({ quantity: 0.5, unit, food: { name: "chopped onion" }, note: "" }, false);
    expect(d).toBe("0.5 tbsp chopped onion");
  });
  it("drops quantity and unit at quantity 0 and pluralises the food", () => {
    const d = ingredientDisplay(
      { quantity: 0, unit: { name: "tablespoon", fraction: true }, food: choppedOnion, note: "" },
      false,
    );
    expect(d).toBe("chopped onions");
  });
  it("uses the note-only form when the recipe disables amounts", () => {
    expect(
      ingredientDisplay(
        { quantity: 2, unit: null, food: { name: "chopped onion" }, note: "very thin" },
        true,
      ),
    ).toBe("2 very thin");
    expect(ingredientDisplay({ quantity: 1, unit: null, food: null, note: "1 Cup Flour" }, true)).toBe(
      "1 Cup Flour",
    );
  });
  it("treats a null quantity like 0", () => {
    expect(
      ingredientDisplay({ quantity: null, unit: null, food: { name: "salt" }, note: "to taste" }, false),
    ).toBe("salt to taste");
  });
  it("shows both bounds of a range and pluralises by the upper one", () => {
    const clove = { name: "clove", pluralName: "cloves" };
    expect(
      ingredientDisplay(
        { quantity: 1, quantityMax: 2, unit: clove, food: { name: "garlic" }, note: "" },
        false,
      ),
    ).toBe("1-2 cloves garlic");
  });
  it("shows a sub-recipe's name where the food goes", () => {
    expect(
      ingredientDisplay(
        { quantity: 1, unit: { name: "batch" }, food: null, note: "", recipeName: "Naan dough" },
        false,
      ),
    ).toBe("1 batch Naan dough");
  });
});

describe("displayQuantity", () => {
  it.each([
    [0.5, "¹/₂"],
    [0.333, "¹/₃"],
    [0.667, "²/₃"],
    [2, "2"],
    [1.25, "1 ¹/₄"],
    [0.031, "¹/₃₂"],
    [0.999, "1"],
    [10.1, "10 ¹/₁₀"],
  ])("renders %d as %j", (q, text) => {
    expect(displayQuantity(q, null)).toBe(text);
  });
});

describe("limitDenominator", () => {
  it("finds the best approximation with a bounded denominator", () => {
    expect(limitDenominator(333, 1000, 32)).toEqual([1, 3]);
    expect(limitDenominator(3141593, 1000000, 10)).toEqual([22, 7]);
    expect(limitDenominator(1, 4, 32)).toEqual([1, 4]);
  });
});
