import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatDuration,
  formatLocaleNumber,
  formatPercent,
  formatSize,
  localizeQuantity,
  recipeImageUrl,
  toIsoDuration,
  truncateChip,
  withUnit,
  yieldText,
} from "./format.js";

describe("truncateChip", () => {
  it("keeps 20 characters, then '...'", () => {
    expect(truncateChip("Dinner")).toBe("Dinner");
    expect(truncateChip("12345678901234567890")).toBe("12345678901234567890");
    expect(truncateChip("A really very long tag name")).toBe("A really very long t...");
  });
});

describe("toIsoDuration", () => {
  it.each([
    ["PT20M", "PT20M"],
    ["1 hour 30 minutes", "PT1H30M"],
    ["45 min", "PT45M"],
    ["2 hrs", "PT2H"],
    ["1h 15m", "PT1H15M"],
    ["90 minutes", "PT1H30M"],
    ["1 hour and 5 minutes", "PT1H5M"],
  ])("%s -> %s", (text, iso) => expect(toIsoDuration(text)).toBe(iso));

  it.each([null, "", "about an hour", "overnight", "0 min"])("unreadable %s -> null", (text) => {
    expect(toIsoDuration(text)).toBeNull();
  });
});

describe("withUnit / yieldText / recipeImageUrl", () => {
  it("adds the unit only to bare numbers", () => {
    expect(withUnit("450", "mg")).toBe("450 mg");
    expect(withUnit("3 g", "g")).toBe("3 g");
    expect(withUnit("320", "")).toBe("320");
  });
  it("describes servings and yield", () => {
    expect(yieldText({ recipeServings: 4, recipeYieldQuantity: 2, recipeYield: "loaves" })).toEqual({
      servings: "4 servings",
      yield: "2 loaves",
    });
    expect(yieldText({ recipeServings: 0, recipeYieldQuantity: 0, recipeYield: null })).toEqual({
      servings: null,
      yield: null,
    });
    expect(yieldText({ recipeServings: 4, recipeYieldQuantity: 0, recipeYield: "4 servings" })).toEqual({
      servings: "4 servings",
      yield: null,
    });
  });
  it("builds media URLs with a cache key", () => {
    expect(recipeImageUrl("abc", "min-original", "k 1")).toBe(
      "/api/media/recipes/abc/images/min-original.webp?v=k%201",
    );
    expect(recipeImageUrl("abc", "original", null)).toBe("/api/media/recipes/abc/images/original.webp");
  });
});

describe("locale formats", () => {
  it("writes numbers and percentages in the language's digits and signs", () => {
    expect(formatLocaleNumber(1234.5, "de-DE")).toBe("1.234,5");
    expect(formatLocaleNumber(12, "ar-SA")).toBe("١٢");
    expect(formatPercent(25, "en-US")).toBe("25%");
    expect(formatPercent(25, "fr-FR")).toMatch(/^25\s%$/);
  });

  it("localizes a quantity's whole numbers and decimals and leaves its fractions", () => {
    expect(localizeQuantity("1 ¹/₂", "ar-SA")).toBe("١ ¹/₂");
    expect(localizeQuantity("0.25-1.5", "de-DE")).toBe("0,25-1,5");
    expect(localizeQuantity("10", "en-US")).toBe("10");
  });

  it("reads a recipe time as a duration in the language's units, free text as written", () => {
    expect(formatDuration("1 hour 30 minutes", "en-US")).toBe("1 hr 30 min");
    expect(formatDuration("PT45M", "de-DE")).toBe("45 Min.");
    expect(formatDuration("1 hour 30 minutes", "ar-SA")).toContain("٣٠");
    expect(formatDuration("overnight", "fr-FR")).toBe("overnight");
  });

  it("formats dates for the language and keeps a value it cannot read", () => {
    expect(formatDate("2026-11-25T10:00:00Z", "de-DE")).toBe("25.11.2026");
    expect(formatDate("soon", "de-DE")).toBe("soon");
    expect(formatDateTime("2026-11-25T10:00:00Z", "en-US")).toContain("2026");
  });
});

describe("sizes for reading", () => {
  it("writes the API's English sizes with the language's digits, decimal sign and units", () => {
    expect(formatSize("12.3 MB", "en-US")).toBe("12.3 MB");
    expect(formatSize("12.3 MB", "de-DE")).toBe("12,3 MB");
    expect(formatSize("512 bytes", "en-US")).toBe("512 bytes");
    expect(formatSize("2.25 KB", "nl-NL")).toBe("2,25 kB");
    expect(formatSize("1.0 kB", "fr-FR")).toMatch(/^1\skB$|^1\sko$/);
    const arabic = formatSize("12.3 MB", "ar-SA");
    expect(arabic).toMatch(/١٢٫٣/);
    expect(arabic).not.toMatch(/[0-9]/);
  });

  it("leaves text in another form as it came", () => {
    expect(formatSize("about 3 MB", "de-DE")).toBe("about 3 MB");
  });
});
