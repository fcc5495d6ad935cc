import { afterEach, describe, expect, it, vi } from "vitest";
import { BadRequestError } from "../errors.js";
import { recipeAttributes, unitAttributes } from "./attributes.js";
import { compileQueryFilter } from "./filter-eval.js";
import { resolveNow } from "./now-placeholder.js";
import { queryFilterParts } from "./query-filter.js";
import { makeRecipe } from "./test-recipes.js";

const NOW = new Date("2026-03-31T12:00:00.000Z");

describe("$NOW in filter values (Mealie's relative dates)", () => {
  afterEach(() => vi.useRealTimers());

  it("names the time of the request, moved by years, months, days, hours, minutes or seconds", () => {
    expect(resolveNow("$NOW", NOW)).toBe("2026-03-31T12:00:00.000");
    expect(resolveNow("$NOW-7d", NOW)).toBe("2026-03-24T12:00:00.000");
    expect(resolveNow("$NOW+2H", NOW)).toBe("2026-03-31T14:00:00.000");
    expect(resolveNow("$NOW-30M", NOW)).toBe("2026-03-31T11:30:00.000");
    expect(resolveNow("$NOW+15S", NOW)).toBe("2026-03-31T12:00:15.000");
    expect(resolveNow("$NOW-1y", NOW)).toBe("2025-03-31T12:00:00.000");
    // Months keep the day, clamped to the end of a shorter month, as dateutil's relativedelta does.
    expect(resolveNow("$NOW-1m", NOW)).toBe("2026-02-28T12:00:00.000");
    expect(resolveNow("$NOW+11m", NOW)).toBe("2027-02-28T12:00:00.000");
    expect(resolveNow("plain", NOW)).toBe("plain");
  });

  it("refuses a malformed $NOW with a 400 that shows the accepted form", () => {
    for (const bad of ["$NOW-", "$NOW-xd", "$NOW-7", "$NOW*7d", "$NOW-7w", "$NOW-1.5d"]) {
      const error = (() => {
        try {
          resolveNow(bad, NOW);
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).message).toContain(`'${bad}' is not a valid $NOW value`);
    }
  });

  it("selects recipes created in the last week or before last month, written quoted or bare", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    const recent = makeRecipe({ name: "Recent", createdAt: "2026-03-30T09:00:00Z" });
    const old = makeRecipe({ name: "Old", createdAt: "2026-01-02T09:00:00Z" });
    const names = (filter: string) =>
      [recent, old].filter(compileQueryFilter(filter, recipeAttributes)!).map((r) => r.name);
    expect(names("createdAt >= $NOW-7d")).toEqual(["Recent"]);
    expect(names('createdAt >= "$NOW-7d"')).toEqual(["Recent"]);
    expect(names("createdAt < $NOW-1m")).toEqual(["Old"]);
    expect(names("createdAt IN [$NOW, $NOW-1d]")).toEqual([]);
    expect(names("createdAt <= $NOW")).toEqual(["Recent", "Old"]);
  });

  it("is resolved when the filter is read, so a later request sees a later now", () => {
    const units = [{ createdAt: "2026-03-31T12:00:30Z" }];
    const count = () => units.filter(compileQueryFilter("createdAt <= $NOW", unitAttributes) as never).length;
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    expect(count()).toBe(0);
    vi.setSystemTime(new Date("2026-03-31T12:01:00Z"));
    expect(count()).toBe(1);
  });

  it("stays relative in the stored JSON form of cookbooks and rules", () => {
    expect(queryFilterParts("createdAt >= $NOW-7d").parts[0].value).toBe("$NOW-7d");
  });
});
