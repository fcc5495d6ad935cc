/**
 * Both parsers on ingredient lines in the styles the labelled data has few of (styles.cases.ts), read
 * against the en-US seed vocabulary as a new group has it (decision 0251).
 */
import { describe, expect, it } from "vitest";
import { STYLE_CASES } from "./styles.cases.js";
import { noteKey, styleMismatches } from "./styles.check.js";

describe("ingredient lines as recipe sites, cookbooks and people write them", () => {
  it("are over two hundred, each written once", () => {
    expect(STYLE_CASES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(STYLE_CASES.map((c) => c[0])).size).toBe(STYLE_CASES.length);
  });

  it("compare notes by their parts, however a size is spaced", () => {
    expect(noteKey("400 g, drained")).toBe(noteKey("drained, 400g"));
    expect(noteKey("14.5 ounce")).toBe(noteKey("14.5-ounce"));
    expect(noteKey("chopped")).not.toBe(noteKey("chopped roughly"));
  });

  it.each(STYLE_CASES.map((c) => [c[0], c] as const))("nlp reads %j", (_line, c) => {
    expect(styleMismatches("nlp", c)).toEqual([]);
  });

  it.each(STYLE_CASES.map((c) => [c[0], c] as const))("brute reads %j", (_line, c) => {
    expect(styleMismatches("brute", c)).toEqual([]);
  });
});
