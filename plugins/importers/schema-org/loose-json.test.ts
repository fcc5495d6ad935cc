/**
 * JSON-LD with double quotes left unescaped inside its strings: read as the text the page meant,
 * never at the cost of a document that is JSON, and in time linear in the script however hostile.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonLoose, repaired } from "./loose-json.js";

describe("JSON-LD with unescaped quotes inside strings", () => {
  it("reads a quote followed by a word as part of the text", () => {
    expect(parseJsonLoose('{"description": "The "best" cake", "name": "Cake"}')).toEqual({
      description: 'The "best" cake',
      name: "Cake",
    });
    expect(parseJsonLoose('{"recipeInstructions": [{"text": "Add 2" of water"}, "Stir"]}')).toEqual({
      recipeInstructions: [{ text: 'Add 2" of water' }, "Stir"],
    });
  });

  it("ends a string at a quote before a comma and the next key or value", () => {
    const text = `{"name": "Gran's "secret" pie",
      "recipeYield": "a 9" pie", "recipeIngredient": ["1 "heaped" cup flour", 2, true, null],
      "keywords": "pie, "easy", tender"}`;
    expect(parseJsonLoose(text)).toEqual({
      name: `Gran's "secret" pie`,
      recipeYield: 'a 9" pie',
      recipeIngredient: ['1 "heaped" cup flour', 2, true, null],
      keywords: 'pie, "easy", tender',
    });
  });

  it("repairs quotes together with the other damage: comments and trailing commas", () => {
    const text = `{"name": "The "best" cake", // a theme's note
      "recipeIngredient": ["2 eggs",],}`;
    expect(parseJsonLoose(text)).toEqual({ name: 'The "best" cake', recipeIngredient: ["2 eggs"] });
  });

  it("leaves every JSON document as JSON.parse reads it, even through the quote repair", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(parseJsonLoose(text)).toEqual(JSON.parse(text));
        // The repair on its own changes no string of a document that is JSON.
        expect(JSON.parse(repaired(text, { quotes: true }))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("returns on a hostile script of a million quotes, or of quotes, commas and spaces", () => {
    // Asserted by size, not by value: a failing match would print a million characters.
    const quotes = parseJsonLoose(`{"a": ${'"'.repeat(1_000_000)}}`) as { a: string };
    expect(quotes.a.length).toBe(999_998);
    const spaced = `"x${' ",'.repeat(200_000)}${" ".repeat(1_000_000)}`;
    expect(parseJsonLoose(`{"a": ${spaced}}`)).toBeUndefined();
    const spaces = " ".repeat(1_000_000);
    expect(parseJsonLoose(`{"a": [1,${spaces}/* c */${spaces}], "b": "x" y"}`)).toEqual({
      a: [1],
      b: 'x" y',
    });
    const commas = parseJsonLoose(`{"a": "${'x" , '.repeat(300_000)}end"}`) as { a: string };
    expect(commas.a === `${'x" , '.repeat(300_000)}end`).toBe(true);
  });
});
