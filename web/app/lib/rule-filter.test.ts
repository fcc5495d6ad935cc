import { describe, expect, it } from "vitest";
// The built strings must mean in core what the builder shows; the test may load core (never bundled).
/* eslint-disable no-restricted-imports */
import { compileQueryFilter, recipeAttributes } from "../../../core/query/index.js";
import { categoryId, makeRecipe, tagId } from "../../../core/query/test-recipes.js";
/* eslint-enable no-restricted-imports */
import {
  buildFilter,
  isComplete,
  newCondition,
  readFilter,
  withField,
  type Condition,
} from "./rule-filter.js";

const QUICK = tagId('Mom\'s "quick", easy');
const VEGAN = tagId("Веган 素食");
const DINNER = categoryId("Dîner, le soir");
const HOUSE = "9b2f3c1e-1d2a-4c3b-8e4f-5a6b7c8d9e0f";

const recipes = [
  makeRecipe({
    name: "Both",
    tags: ['Mom\'s "quick", easy', "Веган 素食"],
    recipeCategory: ["Dîner, le soir"],
  }),
  makeRecipe({ name: "Quick only", tags: ['Mom\'s "quick", easy'], recipeCategory: ["Dîner, le soir"] }),
  makeRecipe({ name: "Untagged", rating: 5, lastMade: "2026-03-01T18:00:00Z" }),
];
const names = (filter: string) => {
  const p = compileQueryFilter(filter, recipeAttributes);
  return recipes.filter((r) => !p || p(r)).map((r) => r.name);
};

describe("building a rule's filter", () => {
  it("writes each operator in the syntax core parses, ids quoted, conditions joined by AND", () => {
    const conditions: Condition[] = [
      { field: "tags", op: "all", values: [QUICK, VEGAN] },
      { field: "categories", op: "any", values: [DINNER] },
      { field: "households", op: "none", values: [HOUSE] },
    ];
    const filter = buildFilter(conditions);
    expect(filter).toBe(
      `tags.id CONTAINS ALL ["${QUICK}", "${VEGAN}"] AND recipe_category.id IN ["${DINNER}"] AND ` +
        `household_id NOT IN ["${HOUSE}"]`,
    );
    expect(names(filter)).toEqual(["Both"]);
  });

  it("selects what each operator says: any of, all of, none of", () => {
    const tags = (op: Condition["op"]) => buildFilter([{ field: "tags", op, values: [QUICK, VEGAN] }]);
    expect(names(tags("any"))).toEqual(["Both", "Quick only"]);
    expect(names(tags("all"))).toEqual(["Both"]);
    expect(names(tags("none"))).toEqual(["Untagged"]);
  });

  it("writes ratings and last-made dates core accepts", () => {
    expect(names(buildFilter([{ field: "rating", op: "atLeast", values: ["4"] }]))).toEqual(["Untagged"]);
    expect(names(buildFilter([{ field: "lastMade", op: "never", values: [] }]))).toEqual([
      "Both",
      "Quick only",
    ]);
    expect(names(buildFilter([{ field: "lastMade", op: "before", values: ["2026-04-01"] }]))).toEqual([
      "Untagged",
    ]);
    expect(names(buildFilter([{ field: "lastMade", op: "since", values: ["2026-04-01"] }]))).toEqual([]);
  });

  it("leaves out a condition still being filled in, and is empty (any recipe) without conditions", () => {
    expect(buildFilter([])).toBe("");
    expect(buildFilter([newCondition("tags"), { field: "lastMade", op: "before", values: [""] }])).toBe("");
    expect(isComplete(newCondition("rating"))).toBe(true);
  });

  it("keeps the operator when the field changes if the new field has it", () => {
    expect(withField({ field: "tags", op: "none", values: [QUICK] }, "tools")).toEqual({
      field: "tools",
      op: "none",
      values: [],
    });
    expect(withField({ field: "tags", op: "all", values: [QUICK] }, "households").op).toBe("any");
  });
});

describe("reading a rule's filter back", () => {
  it("round-trips every kind of condition the builder writes", () => {
    const conditions: Condition[] = [
      { field: "categories", op: "none", values: [DINNER] },
      { field: "tags", op: "all", values: [QUICK, VEGAN] },
      { field: "tools", op: "any", values: [tagId("pan")] },
      { field: "foods", op: "any", values: [tagId("rice"), tagId("beans")] },
      { field: "households", op: "any", values: [HOUSE] },
      { field: "rating", op: "atLeast", values: ["3"] },
      { field: "lastMade", op: "never", values: [] },
      { field: "lastMade", op: "before", values: ["2026-01-31"] },
      { field: "lastMade", op: "since", values: ["2025-12-01"] },
      { field: "tags", op: "none", values: [VEGAN] },
    ];
    const filter = buildFilter(conditions);
    expect(readFilter(filter)).toEqual({ ok: true, conditions });
    expect(buildFilter((readFilter(filter) as { conditions: Condition[] }).conditions)).toBe(filter);
  });

  it("reads the other spellings core accepts for the same conditions (Mealie's, camelCase, =)", () => {
    const read = readFilter(
      `recipeCategory.id CONTAINS ALL ["${DINNER}"] and TAGS.ID = "${QUICK}" AND householdId <> ${HOUSE}` +
        ` AND lastMade IS none AND rating >= "5" AND recipeIngredient.food.id IN [${VEGAN}]`,
    );
    expect(read).toEqual({
      ok: true,
      conditions: [
        { field: "categories", op: "all", values: [DINNER] },
        { field: "tags", op: "any", values: [QUICK] },
        { field: "households", op: "none", values: [HOUSE] },
        { field: "lastMade", op: "never", values: [] },
        { field: "rating", op: "atLeast", values: ["5"] },
        { field: "foods", op: "any", values: [VEGAN] },
      ],
    });
  });

  it("reads a blank filter as no conditions", () => {
    expect(readFilter("  ")).toEqual({ ok: true, conditions: [] });
  });

  it("says why a filter the builder cannot show stays text: OR, parentheses, other fields and operators", () => {
    expect(readFilter(`tags.id IN ["${QUICK}"] OR tags.id IN ["${VEGAN}"]`)).toEqual({
      ok: false,
      reason: "or",
    });
    expect(readFilter(`(tags.id IN ["${QUICK}"])`)).toEqual({ ok: false, reason: "parentheses" });
    expect(readFilter('name = "Soup" OR (tags.name IN ["Quick"])')).toEqual({ ok: false, reason: "or" });
    expect(readFilter('name = "Soup" AND (tags.name IN ["Quick"])')).toEqual({
      ok: false,
      reason: "parentheses",
    });
    expect(readFilter('tags.name CONTAINS ALL ["Quick"]')).toEqual({ ok: false, reason: "field" });
    expect(readFilter('name = "Pancakes"')).toEqual({ ok: false, reason: "field" });
    expect(readFilter(`household_id CONTAINS ALL ["${HOUSE}"]`)).toEqual({ ok: false, reason: "operator" });
    expect(readFilter("tags IS NULL")).toEqual({ ok: false, reason: "operator" });
    expect(readFilter("rating > 3")).toEqual({ ok: false, reason: "operator" });
    expect(readFilter("rating >= 3.5")).toEqual({ ok: false, reason: "value" });
    expect(readFilter('last_made < "2026-01-01T10:00:00Z"')).toEqual({ ok: false, reason: "value" });
    expect(readFilter('tags.id IN ["unterminated')).toEqual({ ok: false, reason: "invalid" });
  });
});
