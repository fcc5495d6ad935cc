import { describe, expect, it } from "vitest";
import { BadRequestError } from "../errors.js";
import type { IngredientUnit } from "../schemas/recipe.js";
import { derivedId } from "../util/ids.js";
import { foodAttributes, recipeAttributes, unitAttributes } from "./attributes.js";
import { compileQueryFilter, likePattern, validateQueryFilter } from "./filter-eval.js";
import { categoryId, makeRecipe, tagId, userId } from "./test-recipes.js";

function unit(name: string, extra: Partial<IngredientUnit> = {}): IngredientUnit {
  return {
    id: derivedId("unit", name),
    name,
    pluralName: null,
    description: "",
    extras: {},
    fraction: true,
    abbreviation: "",
    pluralAbbreviation: null,
    useAbbreviation: false,
    aliases: [],
    standardQuantity: null,
    standardUnit: null,
    createdAt: null,
    updatedAt: null,
    groupId: derivedId("group"),
    ...extra,
  };
}

const units = [
  unit("test unit 1", {
    createdAt: "2024-10-24T17:27:57.123456Z",
    useAbbreviation: true,
    abbreviation: "tu1",
  }),
  unit("test unit 2", { createdAt: "2024-10-24T17:27:57.123457+00:00" }),
  unit("test unit 3", { createdAt: "2024-10-24T17:27:58", useAbbreviation: true }),
];
const unitNames = (filter: string) =>
  units.filter(compileQueryFilter(filter, unitAttributes)!).map((u) => u.name);

const recipes = [
  makeRecipe({
    name: "Pasta",
    rating: 5,
    lastMade: "2024-03-01T12:00:00Z",
    dateAdded: "2024-02-25",
    tags: ["dinner", "quick"],
    recipeCategory: ["main", "italian"],
    settings: {
      public: true,
      showNutrition: false,
      showAssets: false,
      landscapeView: false,
      disableComments: true,
      locked: false,
      disableAmount: false,
    },
  }),
  makeRecipe({
    name: "Soup",
    rating: 2,
    tags: ["dinner"],
    recipeCategory: ["main"],
    dateAdded: "2024-02-26",
  }),
  makeRecipe({
    name: "Cake",
    rating: null,
    tags: [],
    recipeCategory: ["dessert"],
    userId: userId("bob"),
    user: { id: userId("bob"), username: "bob" },
  }),
  makeRecipe({ name: "Salad", rating: 3, tags: ["quick"], foods: ["lettuce", "tomato"] }),
];
const recipeNames = (filter: string) =>
  recipes.filter(compileQueryFilter(filter, recipeAttributes)!).map((r) => r.name);

function expect400(fn: () => unknown, fragment: string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    expect((e as BadRequestError).status).toBe(400);
    expect((e as BadRequestError).body().detail).toContain(fragment);
    return;
  }
  throw new Error("expected a 400");
}

describe("filter evaluation: the upstream query-filter assertions (§14.1 46–49)", () => {
  it('name = "test unit 2" selects only that unit', () => {
    expect(unitNames('name="test unit 2"')).toEqual(["test unit 2"]);
  });

  it("IN includes and NOT IN excludes the listed names", () => {
    expect(unitNames('name IN ["test unit 1", "test unit 3"]')).toEqual(["test unit 1", "test unit 3"]);
    expect(unitNames('name NOT IN ["test unit 1", "test unit 3"]')).toEqual(["test unit 2"]);
  });

  it("LIKE supports _ and % wildcards", () => {
    expect(unitNames('name LIKE "test u_it%"')).toHaveLength(3);
    expect(unitNames('name LIKE "%unit 1"')).toEqual(["test unit 1"]);
    expect(unitNames('name NOT LIKE "%unit 1"')).toEqual(["test unit 2", "test unit 3"]);
  });

  it("LIKE, =, <> and IN are all case-insensitive on strings, as in Mealie", () => {
    expect(unitNames('name LIKE "TEST UNIT 1"')).toEqual(["test unit 1"]);
    expect(unitNames('name = "TEST UNIT 1"')).toEqual(["test unit 1"]);
    expect(unitNames('name <> "Test Unit 1"')).toEqual(["test unit 2", "test unit 3"]);
    expect(unitNames('name IN ["TEST UNIT 2", "Test unit 3"]')).toEqual(["test unit 2", "test unit 3"]);
    expect(unitNames('name NOT IN ["TEST UNIT 2"]')).toEqual(["test unit 1", "test unit 3"]);
  });

  it("LIKE treats regex characters literally", () => {
    expect(likePattern("a.b(c)*").test("a.b(c)*")).toBe(true);
    expect(likePattern("a.b").test("axb")).toBe(false);
    expect(likePattern("50%").test("150")).toBe(false);
    expect(likePattern("50%").test("500")).toBe(true);
  });

  it("LIKE matches % and _ anywhere, any number of times", () => {
    expect(likePattern("%a_c%").test("xxabcxx")).toBe(true);
    expect(likePattern("%a_c%").test("xxacxx")).toBe(false);
    expect(likePattern("a%b%c").test("aXXbYYc")).toBe(true);
    expect(likePattern("a%b%c").test("aXXcYYb")).toBe(false);
    expect(likePattern("%%").test("")).toBe(true);
    expect(likePattern("_").test("é")).toBe(true);
    expect(likePattern("ÉCLAIR%").test("éclair au chocolat")).toBe(true);
  });

  it("answers a LIKE of many % that fails at once, not after exponential backtracking", () => {
    // With a regular expression of one `.*` per `%` this took minutes (hostile-input replay).
    const hostile = likePattern(`${"%".repeat(70)}zzz`);
    const text = "a".repeat(2_000);
    const many = likePattern(`${"%a".repeat(40)}b`);
    // The old matcher did not finish within the test's time limit.
    expect(hostile.test(text)).toBe(false);
    expect(many.test(text)).toBe(false);
  });

  it("booleans: t/y prefixes and 1 are true, anything else false", () => {
    expect(unitNames("useAbbreviation=true")).toEqual(["test unit 1", "test unit 3"]);
    expect(unitNames("useAbbreviation=Yes")).toEqual(["test unit 1", "test unit 3"]);
    expect(unitNames("useAbbreviation=1")).toEqual(["test unit 1", "test unit 3"]);
    expect(unitNames("useAbbreviation=f")).toEqual(["test unit 2"]);
    expect(unitNames("useAbbreviation=nope")).toEqual(["test unit 2"]);
  });

  it("combines a boolean with an id list", () => {
    const ids = units
      .slice(0, 2)
      .map((u) => `"${u.id}"`)
      .join(",");
    expect(unitNames(`useAbbreviation=true AND id IN [${ids}]`)).toEqual(["test unit 1"]);
  });

  it("compares datetimes at microsecond precision with > and >= (3/2/1/0)", () => {
    const counts = units.flatMap((u) => [
      unitNames(`createdAt>="${u.createdAt}"`).length,
      unitNames(`createdAt>"${u.createdAt}"`).length,
    ]);
    expect(counts).toEqual([3, 2, 2, 1, 1, 0]);
  });

  it("treats naive datetimes as UTC and honours offsets", () => {
    expect(unitNames('createdAt = "2024-10-24T19:27:58+02:00"')).toEqual(["test unit 3"]);
    expect(unitNames('createdAt < "2024-10-24T17:27:58Z"')).toEqual(["test unit 1", "test unit 2"]);
  });

  it("evaluates the nested documentation example", () => {
    expect(
      unitNames(
        'name="test unit 1" OR (useAbbreviation=f AND (name="x" OR createdAt > "2024-01-01T00:00:00"))',
      ),
    ).toEqual(["test unit 1", "test unit 2"]);
  });
});

describe("filter evaluation on recipes", () => {
  it("IS NULL / IS NONE / IS NOT NULL (§14.1 47)", () => {
    expect(recipeNames("lastMade IS NULL")).toEqual(["Soup", "Cake", "Salad"]);
    expect(recipeNames("lastMade IS NONE")).toEqual(["Soup", "Cake", "Salad"]);
    expect(recipeNames("last_made IS NOT NULL")).toEqual(["Pasta"]);
  });

  it("compares numbers: rating > 2 and rating in [1, 3]", () => {
    expect(recipeNames("rating > 2")).toEqual(["Pasta", "Salad"]);
    expect(recipeNames("rating in [2, 3]")).toEqual(["Soup", "Salad"]);
    expect(recipeNames("rating <= 2.5")).toEqual(["Soup"]);
  });

  it("a null value fails every comparison, negated ones included", () => {
    expect(recipeNames("rating <> 5")).toEqual(["Soup", "Salad"]);
    expect(recipeNames("rating NOT IN [5]")).toEqual(["Soup", "Salad"]);
  });

  it("IN on a to-many path means any related value", () => {
    expect(recipeNames("tags.name IN [dinner, nothing]")).toEqual(["Pasta", "Soup"]);
    expect(recipeNames(`tags.id IN ["${tagId("quick")}"]`)).toEqual(["Pasta", "Salad"]);
  });

  it("CONTAINS ALL on a to-many path means every listed value is related", () => {
    expect(recipeNames("tags.name CONTAINS ALL [dinner, quick]")).toEqual(["Pasta"]);
    expect(recipeNames(`recipe_category.id CONTAINS ALL ["${categoryId("main")}"]`)).toEqual([
      "Pasta",
      "Soup",
    ]);
    expect(
      recipeNames(
        `recipeCategory.id CONTAINS ALL ["${categoryId("main")}","${categoryId("italian")}"] AND tags.id IN ["${tagId("dinner")}"]`,
      ),
    ).toEqual(["Pasta"]);
  });

  it("NOT IN and <> on a to-many path mean no related value matches (untagged recipes pass)", () => {
    expect(recipeNames("tags.name NOT IN [quick]")).toEqual(["Soup", "Cake"]);
    expect(recipeNames("tags.name <> dinner")).toEqual(["Cake", "Salad"]);
  });

  it("IS NULL on a to-many path means no related rows", () => {
    expect(recipeNames("tags.name IS NULL")).toEqual(["Cake"]);
    expect(recipeNames("tags.id IS NOT NULL")).toEqual(["Pasta", "Soup", "Salad"]);
  });

  it("reads nested paths: user, settings, household preferences, ingredient foods", () => {
    expect(recipeNames(`user.id="${userId("bob")}"`)).toEqual(["Cake"]);
    expect(recipeNames("user.username = alice")).toEqual(["Pasta", "Soup", "Salad"]);
    expect(recipeNames("settings.public = TRUE")).toEqual(["Pasta"]);
    expect(recipeNames("settings.public <> TRUE")).toEqual(["Soup", "Cake", "Salad"]);
    expect(recipeNames("household.preferences.privateHousehold = false")).toHaveLength(4);
    expect(recipeNames("recipeIngredient.food.name IN [tomato]")).toEqual(["Salad"]);
  });

  it("accepts uuids in any case and Python's other spellings", () => {
    const id = userId("bob");
    expect(recipeNames(`userId = "${id.toUpperCase()}"`)).toEqual(["Cake"]);
    expect(recipeNames(`userId = ${id.replace(/-/g, "")}`)).toEqual(["Cake"]);
    expect(recipeNames(`household_id = "{${recipes[0].householdId}}"`)).toHaveLength(4);
  });

  it("compares a date column on the date part of the value", () => {
    expect(recipeNames("dateAdded = 2024-02-25")).toEqual(["Pasta"]);
    expect(recipeNames('dateAdded = "2024-02-25T23:59:59"')).toEqual(["Pasta"]);
    expect(recipeNames('dateAdded > "2024-02-25T10:00:00"')).toEqual(["Soup"]);
    expect(recipeNames("date_added >= 2024/02/25")).toEqual(["Pasta", "Soup"]);
  });

  it("compares strings case-insensitively, on to-many paths too, and by lowercased code point with <", () => {
    expect(recipeNames("name = pasta")).toEqual(["Pasta"]);
    expect(recipeNames("name < P")).toEqual(["Cake"]);
    expect(recipeNames("name < p")).toEqual(["Cake"]);
    expect(recipeNames("tags.name CONTAINS ALL [Dinner, QUICK]")).toEqual(["Pasta"]);
    expect(recipeNames("tags.name NOT IN [QUICK]")).toEqual(["Soup", "Cake"]);
    expect(recipeNames("tags.name = DINNER")).toEqual(["Pasta", "Soup"]);
  });
});

describe("filter evaluation: typed values and errors (§14.1 51)", () => {
  it.each([
    ["id = not-a-uuid", "'not-a-uuid' is not a valid UUID"],
    ['label_id IN ["1"]', "'1' is not a valid UUID"],
    ['createdAt > "not-a-date"', "'not-a-date' is not a valid datetime"],
    ['createdAt > "2024-13-01"', "is not a valid datetime"],
    ['createdAt > "2024-02-30"', "is not a valid datetime"],
    ["standardQuantity > lots", "'lots' is not a valid number"],
    ['createdAt LIKE "2024%"', "'LIKE' can only be used with string columns"],
    ['id LIKE "%"', "'LIKE' can only be used with string columns"],
  ])("%s → 400", (filter, fragment) => {
    const compile = () =>
      filter.startsWith("label")
        ? compileQueryFilter(filter, foodAttributes)
        : compileQueryFilter(filter, unitAttributes);
    expect400(compile, "invalid query string: ");
    expect400(compile, fragment);
  });

  it("rejects a bad uuid inside a to-many list (the meal-plan rule case)", () => {
    expect400(
      () => compileQueryFilter('recipe_category.id IN ["1"]', recipeAttributes),
      "invalid query string: '1' is not a valid UUID",
    );
  });

  it.each(["badAttribute", "group.badAttribute", "group.preferences.badAttribute", "label.name"])(
    "unknown attribute %s → 400 naming it as written",
    (attr) => {
      expect400(
        () => compileQueryFilter(`${attr} = x`, unitAttributes),
        `invalid attribute string: '${attr}' does not exist on this schema`,
      );
    },
  );

  it("fails at compile time even for an empty list, so stored filters can be validated", () => {
    expect(() => validateQueryFilter('badfield = "badvalue"', recipeAttributes)).toThrow(BadRequestError);
    expect(() =>
      validateQueryFilter('tags.name CONTAINS ALL ["tag1","tag2"]', recipeAttributes),
    ).not.toThrow();
    expect(compileQueryFilter("", recipeAttributes)).toBeNull();
  });
});
