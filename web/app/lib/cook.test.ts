import { describe, expect, it } from "vitest";
import { clampStep, stepIngredientIndexes } from "./cook.js";

describe("cook mode", () => {
  it("maps each step's ingredient references to ingredient positions", () => {
    const steps = [
      { ingredientReferences: ["c", "a", "a"] },
      { ingredientReferences: [] },
      { ingredientReferences: ["zz", "b"] },
    ];
    expect(stepIngredientIndexes(steps, ["a", "b", "c"])).toEqual([[0, 2], [], [1]]);
  });

  it("keeps the current step inside the recipe", () => {
    expect(clampStep(-1, 3)).toBe(0);
    expect(clampStep(5, 3)).toBe(2);
    expect(clampStep(1, 0)).toBe(0);
  });
});
