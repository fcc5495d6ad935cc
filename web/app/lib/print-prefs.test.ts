import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRINT_PREFS,
  PRINT_PREFS_KEY,
  loadPrintPrefs,
  parsePrintPrefs,
  savePrintPrefs,
} from "./print-prefs.js";

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe("print preferences", () => {
  it("defaults to image left, description and notes shown (spec §3)", () => {
    expect(parsePrintPrefs(null)).toEqual({
      imagePosition: "left",
      showDescription: true,
      showNotes: true,
      showNutrition: false,
    });
  });

  it("round-trips through storage", () => {
    const s = memory();
    savePrintPrefs(
      { imagePosition: "hidden", showDescription: false, showNotes: true, showNutrition: true },
      s,
    );
    expect(JSON.parse(s.m.get(PRINT_PREFS_KEY)!)).toMatchObject({ imagePosition: "hidden" });
    expect(loadPrintPrefs(s)).toEqual({
      imagePosition: "hidden",
      showDescription: false,
      showNotes: true,
      showNutrition: true,
    });
  });

  it("takes the default for each damaged field", () => {
    expect(parsePrintPrefs('{"imagePosition":"top","showNotes":false,"showNutrition":"yes"}')).toEqual({
      ...DEFAULT_PRINT_PREFS,
      showNotes: false,
    });
    expect(parsePrintPrefs("not json")).toEqual(DEFAULT_PRINT_PREFS);
    expect(parsePrintPrefs("[1,2]")).toEqual(DEFAULT_PRINT_PREFS);
  });

  it("survives storage that throws", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("quota");
      },
    };
    expect(loadPrintPrefs(broken)).toEqual(DEFAULT_PRINT_PREFS);
    expect(() => savePrintPrefs(DEFAULT_PRINT_PREFS, broken)).not.toThrow();
  });
});
