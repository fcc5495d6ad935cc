import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors.js";
import { derivedId } from "../util/ids.js";
import { parseRecipeOrganizerParams, recipeOrganizerFilter } from "./recipe-filters.js";
import { categoryId, foodId, makeRecipe, tagId } from "./test-recipes.js";

const h2 = derivedId("household", "h2");
const recipes = [
  makeRecipe({ name: "A", tags: ["quick", "dinner"], recipeCategory: ["main"], foods: ["rice"] }),
  makeRecipe({ name: "B", tags: ["quick"], tools: ["wok"], foods: ["rice", "egg"] }),
  makeRecipe({
    name: "C",
    tags: ["dinner"],
    householdId: h2,
    household: { id: h2, slug: "h2", preferences: { privateHousehold: false } },
  }),
];
const names = (q: Record<string, string | string[]>) => {
  const p = recipeOrganizerFilter(parseRecipeOrganizerParams(q));
  return p ? recipes.filter(p).map((r) => r.name) : "no filter";
};

describe("recipe organizer parameters", () => {
  it("returns exactly the recipes carrying a tag, by id or slug (§14.1 23)", () => {
    expect(names({ tags: tagId("dinner") })).toEqual(["A", "C"]);
    expect(names({ tags: "dinner" })).toEqual(["A", "C"]);
    expect(names({ categories: categoryId("main") })).toEqual(["A"]);
    expect(names({ tools: "wok" })).toEqual(["B"]);
  });

  it("matches any listed value unless requireAll is set", () => {
    expect(names({ tags: ["quick", "dinner"] })).toEqual(["A", "B", "C"]);
    expect(names({ tags: ["quick", "dinner"], requireAllTags: "true" })).toEqual(["A"]);
    expect(names({ "tags[]": ["quick", "dinner"], require_all_tags: "1" })).toEqual(["A"]);
  });

  it("matches foods by id (or name), and ANDs different organizer kinds", () => {
    expect(names({ foods: [foodId("egg"), foodId("rice")], requireAllFoods: "yes" })).toEqual(["B"]);
    expect(names({ foods: "RICE" })).toEqual(["A", "B"]);
    expect(names({ foods: "rice", tags: "dinner" })).toEqual(["A"]);
  });

  it("filters by household id or slug (§14.1 29)", () => {
    expect(names({ households: h2 })).toEqual(["C"]);
    expect(names({ households: "h2" })).toEqual(["C"]);
  });

  it("is no filter when nothing is given, and 422 on a bad boolean", () => {
    expect(names({})).toBe("no filter");
    expect(() => parseRecipeOrganizerParams({ requireAllTags: "maybe" })).toThrow(ValidationError);
  });
});
