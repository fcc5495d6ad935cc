import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseTimestamp } from "./wire-context.js";

/** The general path: whatever Date makes of it. */
function viaDate(v: string): string | null {
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(".000Z", "Z");
}

describe("normaliseTimestamp", () => {
  it("returns a canonical UTC stamp as is, exactly when the Date round trip gives it back", () => {
    for (const v of [
      "2023-02-30T11:25:08Z",
      "2024-02-29T11:25:08Z",
      "1900-02-29T00:00:00Z",
      "2000-02-29T00:00:00Z",
      "2024-02-29T24:00:00Z",
      "2023-01-16T11:25:60Z",
      "2023-13-16T11:25:08Z",
      "0000-01-01T00:00:00Z",
      "2023-04-31T00:00:00Z",
    ]) {
      expect(normaliseTimestamp(v)).toBe(viaDate(v));
    }
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        two(13),
        two(32),
        two(25),
        two(61),
        two(61),
        (y, mo, d, h, mi, s) => {
          const v = `${String(y).padStart(4, "0")}-${mo}-${d}T${h}:${mi}:${s}Z`;
          expect(normaliseTimestamp(v)).toBe(viaDate(v));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("widens a bare date and normalises other forms through Date", () => {
    expect(normaliseTimestamp("2026-11-21")).toBe("2026-11-21T00:00:00Z");
    expect(normaliseTimestamp("2026-11-21T18:02:11.250Z")).toBe("2026-11-21T18:02:11.250Z");
    expect(normaliseTimestamp("2026-11-21T19:02:11+01:00")).toBe("2026-11-21T18:02:11Z");
    expect(normaliseTimestamp("not a date")).toBeNull();
    expect(normaliseTimestamp(null)).toBeNull();
  });
});
