/** The cookbook editor's filter builder (web/app/lib/cookbook-filter.ts), checked against core's filter reader. */
import { describe, expect, it } from "vitest";
import { compileQueryFilter } from "../../core/query/filter-eval.js";
import { queryFilterParts } from "../../core/query/query-filter.js";
import { recipeAttributes } from "../../core/query/attributes.js";
import {
  builderToFilter,
  emptyBuilder,
  filterToBuilder,
  newCookbookName,
  reorder,
  type BuilderState,
} from "../../web/app/lib/cookbook-filter.js";

const A = "0b6f5d3e-1d0a-4c55-9d52-8a0e9f0a0001";
const B = "0b6f5d3e-1d0a-4c55-9d52-8a0e9f0a0002";

function state(patch: Partial<BuilderState>): BuilderState {
  return { ...emptyBuilder(), ...patch };
}

describe("cookbook filter builder", () => {
  it("writes nothing for an empty builder: the cookbook holds every recipe", () => {
    expect(builderToFilter(emptyBuilder())).toBe("");
  });

  it("writes one ANDed condition per row, CONTAINS ALL when every pick is required", () => {
    const f = builderToFilter(
      state({
        tags: { ids: [A, B], requireAll: true },
        categories: { ids: [A], requireAll: false },
        households: { ids: [B], requireAll: true },
      }),
    );
    expect(f).toBe(
      `recipe_category.id IN ["${A}"] AND tags.id CONTAINS ALL ["${A}", "${B}"] AND household_id IN ["${B}"]`,
    );
  });

  it("writes filters core accepts for every row", () => {
    const all = state({
      categories: { ids: [A], requireAll: true },
      tags: { ids: [A], requireAll: false },
      tools: { ids: [B], requireAll: true },
      foods: { ids: [A, B], requireAll: false },
      households: { ids: [A], requireAll: false },
    });
    expect(() => compileQueryFilter(builderToFilter(all), recipeAttributes)).not.toThrow();
  });

  it("reads back what it wrote, through core's stored parts", () => {
    const s = state({ tags: { ids: [A, B], requireAll: true }, foods: { ids: [B], requireAll: false } });
    expect(filterToBuilder(queryFilterParts(builderToFilter(s)).parts)).toEqual(s);
  });

  it("leaves a filter it cannot show (OR, other attributes) alone", () => {
    expect(filterToBuilder(queryFilterParts(`tags.id IN ["${A}"] OR tools.id IN ["${B}"]`).parts)).toBeNull();
    expect(filterToBuilder(queryFilterParts(`name LIKE "soup"`).parts)).toBeNull();
  });

  it("names a new cookbook after the household with the next free index", () => {
    const nameFor = (i: number) => `Home Cookbook ${i}`;
    expect(newCookbookName([], nameFor)).toBe("Home Cookbook 1");
    expect(newCookbookName(["Soups", "Home Cookbook 3", "Cakes"], nameFor)).toBe("Home Cookbook 4");
    expect(newCookbookName(["Home Cookbook 2", "x"], nameFor)).toBe("Home Cookbook 3");
  });

  it("moves one cookbook, keeping the others' order", () => {
    const list = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(reorder(list, 2, 0).map((c) => c.id)).toEqual(["c", "a", "b"]);
    expect(reorder(list, 0, 5)).toEqual(list);
  });
});
