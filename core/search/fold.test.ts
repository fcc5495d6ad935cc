import { describe, expect, it } from "vitest";
import { foldText, normalizeText, parseSearchQuery, significantTerms, tokenize } from "./fold.js";

describe("folding and query parsing", () => {
  it("folds accents, ligatures and case", () => {
    expect(foldText("Crème Brûlée")).toBe("creme brulee");
    expect(foldText("Straße Smørrebrød Œuf")).toBe("strasse smorrebrod oeuf");
  });

  it("tokenizes on non-alphanumerics and joins apostrophes", () => {
    expect(tokenize("Skillet Shepherd's Pie (v2)")).toEqual(["skillet", "shepherds", "pie", "v2"]);
    expect(normalizeText("animal-sloop")).toBe("animal sloop");
  });

  it("reads quoted phrases as single tokens and keeps the whole query", () => {
    expect(parseSearchQuery('"Animal Sloop" steinbock  steinbock')).toEqual({
      terms: ["steinbock"],
      phrases: ["animal sloop"],
      normalized: "animal sloop steinbock steinbock",
    });
    expect(parseSearchQuery('pie "unterminated phrase').phrases).toEqual(["unterminated phrase"]);
  });

  it("drops stop words unless nothing else remains", () => {
    expect(significantTerms(["chicken", "and", "rice"])).toEqual(["chicken", "rice"]);
    expect(significantTerms(["the", "and"])).toEqual(["the", "and"]);
  });
});
