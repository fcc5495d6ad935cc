import { describe, expect, it } from "vitest";
import {
  DEFAULT_DAYS,
  addDays,
  byDay,
  clampDays,
  formatPlanDate,
  formatPlanRange,
  isPlanDate,
  localDate,
  parseDaysPref,
  planDays,
  ruleDayOf,
  shiftStart,
  startOfWeek,
} from "./mealplan.js";

describe("plan dates", () => {
  it("accepts real calendar days only", () => {
    expect(isPlanDate("2024-02-29")).toBe(true);
    expect(isPlanDate("2023-02-29")).toBe(false);
    expect(isPlanDate("2024-13-01")).toBe(false);
    expect(isPlanDate("2024-1-01")).toBe(false);
    expect(isPlanDate(null)).toBe(false);
  });

  it("adds days across month and year ends and daylight-saving changes", () => {
    expect(addDays("2024-12-30", 3)).toBe("2025-01-02");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2025-03-29", 2)).toBe("2025-03-31");
  });

  it("names the weekday as rules do", () => {
    expect(ruleDayOf("2023-02-25")).toBe("saturday");
    expect(ruleDayOf("2026-11-23")).toBe("monday");
  });

  it("reads the reader's own calendar day from a clock", () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});

describe("the planner's week", () => {
  // 2026-11-25 is a Wednesday.
  it("starts on the household's first day of week on or before the day", () => {
    expect(startOfWeek("2026-11-25", 0)).toBe("2026-11-22"); // Sunday
    expect(startOfWeek("2026-11-25", 1)).toBe("2026-11-23"); // Monday
    expect(startOfWeek("2026-11-25", 3)).toBe("2026-11-25"); // the day itself
    expect(startOfWeek("2026-11-25", 4)).toBe("2026-11-19"); // last Thursday
    expect(startOfWeek("2026-11-25", 6)).toBe("2026-11-21"); // Saturday
  });

  it("treats a damaged first day of week as Sunday", () => {
    expect(startOfWeek("2026-11-25", 9)).toBe("2026-11-22");
    expect(startOfWeek("2026-11-25", Number.NaN)).toBe("2026-11-22");
  });

  it("lists as many consecutive days as asked, 7 by default", () => {
    expect(planDays("2026-11-23", 3)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25"]);
    expect(planDays("2026-11-23", Number.NaN)).toHaveLength(DEFAULT_DAYS);
  });

  it("keeps the day count within 1..31", () => {
    expect(clampDays("14")).toBe(14);
    expect(clampDays(40)).toBe(31);
    expect(clampDays(0)).toBe(DEFAULT_DAYS);
    expect(clampDays("abc")).toBe(DEFAULT_DAYS);
    expect(clampDays(2.7)).toBe(2);
  });

  it("pages a week at a time up to a week shown, else by the days shown", () => {
    expect(shiftStart("2026-11-23", 7, 1)).toBe("2026-11-30");
    expect(shiftStart("2026-11-23", 3, -1)).toBe("2026-11-16");
    expect(shiftStart("2026-11-23", 14, 1)).toBe("2026-12-07");
  });

  it("reads the stored day count, falling back to 7 when missing or damaged", () => {
    expect(parseDaysPref(null)).toBe(7);
    expect(parseDaysPref("3")).toBe(3);
    expect(parseDaysPref("{}")).toBe(7);
  });
});

describe("entries by day", () => {
  it("sorts each day's entries by entry type, then by id, and drops other days", () => {
    const days = ["2026-11-23", "2026-11-24"];
    const e = (id: number, date: string, entryType: string) => ({ id, date, entryType });
    const out = byDay(days, [
      e(5, "2026-11-23", "dinner"),
      e(2, "2026-11-23", "breakfast"),
      e(1, "2026-11-23", "dinner"),
      e(3, "2026-11-30", "lunch"),
      e(4, "2026-11-24", "dessert"),
    ]);
    expect(out.get("2026-11-23")?.map((x) => x.id)).toEqual([2, 1, 5]);
    expect(out.get("2026-11-24")?.map((x) => x.id)).toEqual([4]);
    expect([...out.keys()]).toEqual(days);
  });
});

describe("date labels", () => {
  it("formats days in the reader's language with plain spaces only", () => {
    expect(formatPlanDate("2026-11-23", "en-US", { weekday: "long" })).toBe("Monday");
    expect(formatPlanDate("2026-11-23", "de-DE", { weekday: "long" })).toBe("Montag");
    const range = formatPlanRange("2026-11-23", "2026-11-29", "en-US", {
      day: "numeric",
      month: "short",
      year: "numeric",
    });
    expect(range).toMatch(/^Nov 23 – 29, 2026$/);
    expect(range).not.toMatch(/[\u2009\u202f\u00a0]/);
  });
});
