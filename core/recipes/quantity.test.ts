import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  formatQuantity,
  formatQuantityRange,
  matchQuantity,
  parseQuantity,
  roundQuantity,
} from "./quantity.js";

describe("parseQuantity", () => {
  it.each([
    ["2", 2],
    ["0.5", 0.5],
    [".25", 0.25],
    ["1/2", 0.5],
    ["1 1/2", 1.5],
    ["1⁄3", 0.333],
    ["½", 0.5],
    ["⅓", 0.333],
    ["¾", 0.75],
    ["⅛", 0.125],
    ["1½", 1.5],
    ["1 ½", 1.5],
    ["1/32", 0.031],
    ["1-1/2", 1.5],
  ])("reads %j as %d", (text, q) => {
    expect(parseQuantity(text)).toEqual({ quantity: q, quantityMax: null });
  });

  it.each([
    ["2-3", 2, 3],
    ["2–3", 2, 3],
    ["2 - 3", 2, 3],
    ["2 to 3", 2, 3],
    ["½-1", 0.5, 1],
    ["1 1/2-2", 1.5, 2],
  ])("reads the range %j as %d..%d", (text, lo, hi) => {
    expect(parseQuantity(text)).toEqual({ quantity: lo, quantityMax: hi });
  });

  it.each(["", "a", "1.", "3/4-inch", "2%", "1/0", "1.5.2"])("finds no quantity in %j", (text) => {
    expect(parseQuantity(text)).toBeNull();
  });
});

describe("matchQuantity", () => {
  it("stops where the unit starts, also without a space", () => {
    expect(matchQuantity("100g flour")).toEqual({ quantity: 100, quantityMax: null, end: 3 });
    expect(matchQuantity("2 cups")).toEqual({ quantity: 2, quantityMax: null, end: 1 });
  });
  it("does not take the second number of '2 12 oz cans' as a fraction", () => {
    expect(matchQuantity("2 12 oz cans")?.quantity).toBe(2);
  });
  it("does not read a numbered list marker as a quantity", () => {
    expect(matchQuantity("1. Preheat")).toBeNull();
  });
});

describe("formatQuantity", () => {
  it.each([
    [2, "2"],
    [0.5, "1/2"],
    [1.5, "1 1/2"],
    [0.333, "1/3"],
    [0.667, "2/3"],
    [0.125, "1/8"],
    [2.75, "2 3/4"],
    [0.2, "0.2"],
    [0.031, "0.031"],
    [1234.568, "1234.568"],
  ])("writes %d as %j", (q, text) => {
    expect(formatQuantity(q)).toBe(text);
  });
  it("writes decimals for a unit that does not use fractions", () => {
    expect(formatQuantity(0.5, { fraction: false })).toBe("0.5");
    expect(formatQuantity(2, { fraction: false })).toBe("2");
  });
  it("never uses exponent notation", () => {
    expect(formatQuantity(1e21)).toBe("1000000000000000000000");
  });
  it("writes ranges with a hyphen", () => {
    expect(formatQuantityRange(2, 3)).toBe("2-3");
    expect(formatQuantityRange(0.5, null)).toBe("1/2");
  });
  it("reads back every quantity it writes (3 decimals)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1e9, noNaN: true }), fc.boolean(), (raw, fraction) => {
        const q = roundQuantity(raw);
        fc.pre(q > 0);
        expect(parseQuantity(formatQuantity(q, { fraction }))).toEqual({ quantity: q, quantityMax: null });
      }),
      { numRuns: 2000 },
    );
  });
});
