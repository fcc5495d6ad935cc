/** The cookbook editor's filter builder (web/app/lib/cookbook-filter.ts), checked against core's filter reader. */
import { describe, expect, it } from "vitest";
import { compileQueryFilter } from "../../core/query/filter-eval.js";
import { recipeAttributes } from "../../core/query/attributes.js";
import { organizerPicker } from "../../web/app/lib/rule-filter.js";
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

  it("reads back what it wrote", () => {
    const s = state({ tags: { ids: [A, B], requireAll: true }, foods: { ids: [B], requireAll: false } });
    expect(filterToBuilder(builderToFilter(s))).toEqual(s);
    expect(filterToBuilder("")).toEqual(emptyBuilder());
  });

  it("reads what the meal-plan rule builder and Mealie write: one module for both screens", () => {
    expect(filterToBuilder(`recipe_category.id = "${A}" AND tags CONTAINS ALL ["${A}", "${B}"]`)).toEqual(
      state({ categories: { ids: [A], requireAll: false }, tags: { ids: [A, B], requireAll: true } }),
    );
  });

  it("leaves a filter it cannot show (OR, other attributes or operators, a row twice) alone", () => {
    expect(filterToBuilder(`tags.id IN ["${A}"] OR tools.id IN ["${B}"]`)).toBeNull();
    expect(filterToBuilder(`name LIKE "soup"`)).toBeNull();
    expect(filterToBuilder(`tags.id NOT IN ["${A}"]`)).toBeNull();
    expect(filterToBuilder(`rating >= 4`)).toBeNull();
    expect(filterToBuilder(`tags.id IN ["${A}"] AND tags.id IN ["${B}"]`)).toBeNull();
  });

  it("shows a deleted tag of a cookbook's filter as deleted, and keeps it on save until it is removed", () => {
    const GONE = "7d1e0c55-0000-4000-8000-00000000dead";
    const loaded = filterToBuilder(`tags.id IN ["${A}", "${GONE}"]`);
    expect(loaded?.tags.ids).toEqual([A, GONE]);
    const picker = organizerPicker(
      [{ value: A, label: "Dinner" }],
      loaded!.tags.ids,
      (id) => `Deleted tag (${id.slice(0, 8)})`,
    );
    // The picker shows both picks, the deleted one by what it is; before, it showed only "Dinner".
    expect(picker.value).toEqual([A, GONE]);
    expect(picker.data).toEqual([
      { value: A, label: "Dinner" },
      { value: GONE, label: "Deleted tag (7d1e0c55)" },
    ]);
    expect(picker.missing).toEqual([GONE]);
    expect(builderToFilter(loaded!)).toBe(`tags.id IN ["${A}", "${GONE}"]`);
    // Removing it is the person's choice, and then it is gone from the options too.
    const removed = organizerPicker([{ value: A, label: "Dinner" }], [A], () => "Deleted tag");
    expect(removed).toEqual({ data: [{ value: A, label: "Dinner" }], value: [A], missing: [] });
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
