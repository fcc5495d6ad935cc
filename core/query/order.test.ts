import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BadRequestError } from "../errors.js";
import type { IngredientFood } from "../schemas/recipe.js";
import { derivedId } from "../util/ids.js";
import { foodAttributes, recipeAttributes, recipeRatingOrder } from "./attributes.js";
import { parseOrderBy, seededShuffle, sortItems } from "./order.js";
import { makeRecipe } from "./test-recipes.js";

function food(
  name: string,
  label: string | null,
  description = "",
  createdAt: string | null = null,
): IngredientFood {
  const labelId = label ? derivedId("label", label) : null;
  return {
    id: derivedId("food", name),
    name,
    pluralName: null,
    description,
    extras: {},
    labelId,
    aliases: [],
    householdsWithIngredientFood: [],
    label: label ? { id: labelId!, name: label, color: "#000", groupId: derivedId("g") } : null,
    createdAt,
    updatedAt: null,
    onHand: false,
    groupId: derivedId("g"),
  };
}

const foods = [
  food("carrot", "Vegetables", "b"),
  food("apple", null, "a"),
  food("Banana", "fruit", "a"),
  food("beef", "Meat", "c"),
];
const order = (orderBy: string, dir: "asc" | "desc" = "asc", nulls?: "first" | "last") =>
  sortItems(foods, parseOrderBy(orderBy, foodAttributes, dir), nulls).map((f) => f.name);

describe("ordering", () => {
  it("sorts strings case-insensitively", () => {
    expect(order("name")).toEqual(["apple", "Banana", "beef", "carrot"]);
    expect(order("name", "desc")).toEqual(["carrot", "beef", "Banana", "apple"]);
  });

  it("applies per-item directions over orderDirection, in order of the items", () => {
    expect(order("description:asc, name:desc", "desc")).toEqual(["Banana", "apple", "carrot", "beef"]);
    expect(order("description, name:asc", "desc")).toEqual(["beef", "carrot", "apple", "Banana"]);
  });

  it("follows nested paths without dropping items whose relation is null", () => {
    expect(order("label.name")).toEqual(["apple", "Banana", "beef", "carrot"]);
    expect(order("label.name", "asc", "last")).toEqual(["Banana", "beef", "carrot", "apple"]);
    expect(order("label.name", "desc", "first")).toEqual(["apple", "carrot", "beef", "Banana"]);
    expect(order("label.name", "desc")).toEqual(["carrot", "beef", "Banana", "apple"]);
  });

  it("accepts camelCase and snake_case paths", () => {
    expect(order("label_id")).toHaveLength(4);
    expect(order("created_at")).toEqual(order("createdAt"));
  });

  it("sorts accented names beside their plain spelling", () => {
    const items = [food("zucchini", null), food("Éclair", null), food("eclair", null), food("apple", null)];
    expect(sortItems(items, parseOrderBy("name", foodAttributes, "asc")).map((f) => f.name)).toEqual([
      "apple",
      "eclair",
      "Éclair",
      "zucchini",
    ]);
  });

  it("sorts datetimes chronologically across offsets and dates by day", () => {
    const items = [
      food("b", null, "", "2024-01-01T10:00:00+02:00"),
      food("a", null, "", "2024-01-01T09:00:00Z"),
      food("c", null, "", "2024-01-01T08:30:00"),
    ];
    expect(sortItems(items, parseOrderBy("createdAt", foodAttributes, "asc")).map((f) => f.name)).toEqual([
      "b",
      "c",
      "a",
    ]);
  });

  it("keeps the input order between equal keys (stable)", () => {
    const items = Array.from({ length: 50 }, (_, i) => food(`f${i}`, null, i % 2 ? "x" : "y"));
    const sorted = sortItems(items, parseOrderBy("description", foodAttributes, "asc"));
    expect(sorted.map((f) => f.name)).toEqual(
      [...items.filter((_, i) => i % 2), ...items.filter((_, i) => !(i % 2))].map((f) => f.name),
    );
  });

  it("returns the same prefix with a limit as a full sort (heap selection)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), { maxLength: 200 }),
        fc.nat(60),
        fc.boolean(),
        (ratings, k, asc) => {
          const items = ratings.map((rating, i) => makeRecipe({ name: `r${i}`, rating }));
          const terms = parseOrderBy("rating", recipeAttributes, asc ? "asc" : "desc");
          expect(sortItems(items, terms, null, k)).toEqual(sortItems(items, terms).slice(0, k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("sorts a to-many path by its smallest value ascending and largest descending", () => {
    const items = [
      makeRecipe({ name: "A", tags: ["m", "z"] }),
      makeRecipe({ name: "B", tags: ["n"] }),
      makeRecipe({ name: "C" }),
    ];
    const names = (dir: "asc" | "desc") =>
      sortItems(items, parseOrderBy("tags.name", recipeAttributes, dir)).map((r) => r.name);
    expect(names("asc")).toEqual(["C", "A", "B"]);
    expect(names("desc")).toEqual(["A", "B", "C"]);
  });

  it("orders recipes by the rating override with unrated recipes last unless asked", () => {
    const items = [
      makeRecipe({ name: "A", rating: 4 }),
      makeRecipe({ name: "B", rating: null }),
      makeRecipe({ name: "C", rating: 2 }),
    ];
    const mine = new Map([[items[2].id, 5]]);
    const run = (dir: "asc" | "desc", nulls?: "first" | "last") =>
      sortItems(
        items,
        parseOrderBy("rating", recipeAttributes, dir, { rating: recipeRatingOrder(mine) }),
        nulls,
      ).map((r) => r.name);
    expect(run("desc")).toEqual(["C", "A", "B"]);
    expect(run("asc")).toEqual(["A", "C", "B"]);
    expect(run("asc", "first")).toEqual(["B", "A", "C"]);
  });

  it.each([
    ["badAttribute", "badAttribute"],
    ["name:sideways", "name:sideways"],
    ["name:asc:desc", "name:asc:desc"],
    ["name, label.colour", "label.colour"],
  ])("answers orderBy=%s with 400 Invalid order_by statement", (orderBy, item) => {
    try {
      parseOrderBy(orderBy, foodAttributes);
      throw new Error("expected a 400");
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestError);
      expect((e as BadRequestError).body()).toEqual({
        detail: `Invalid order_by statement "${orderBy}": "${item}" is invalid`,
      });
    }
  });

  it("accepts direction in any case and skips empty items", () => {
    expect(order("name:DESC,,")).toEqual(["carrot", "beef", "Banana", "apple"]);
  });
});

describe("seeded random order", () => {
  const items = Array.from({ length: 30 }, (_, i) => makeRecipe({ name: `Recipe ${i}` }));
  const ids = (seed: string) => seededShuffle(items, seed, (r) => r.id).map((r) => r.name);

  it("is stable for the same seed and differs between seeds", () => {
    expect(ids("abcdefg")).toEqual(ids("abcdefg"));
    expect(ids("abcdefg")).not.toEqual(ids("gfedcba"));
    expect(ids("abcdefg")[0]).not.toBe(ids("gfedcba")[0]);
  });

  it("is a permutation that does not depend on input order", () => {
    const reversed = seededShuffle([...items].reverse(), "s", (r) => r.id).map((r) => r.name);
    expect(reversed).toEqual(ids("s"));
    expect([...ids("s")].sort()).toEqual(items.map((r) => r.name).sort());
  });

  it("keeps other items' relative order when an item is removed", () => {
    const without = seededShuffle(items.slice(1), "s", (r) => r.id).map((r) => r.name);
    expect(without).toEqual(ids("s").filter((n) => n !== "Recipe 0"));
  });
});
