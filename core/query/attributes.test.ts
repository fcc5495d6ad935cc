import { describe, expect, it } from "vitest";
import { BadRequestError } from "../errors.js";
import {
  AttributeTable,
  attr,
  foodAttributes,
  normalizeAttributePath,
  organizerAttributes,
  recipeAttributes,
  recipeRatingOrder,
  unitAttributes,
  userAttributes,
} from "./attributes.js";
import { makeRecipe, tagId } from "./test-recipes.js";
import { relation } from "./attribute-table.js";

describe("attribute tables", () => {
  it("accept camelCase and snake_case spellings of the same path", () => {
    for (const [a, b] of [
      ["recipeCategory.id", "recipe_category.id"],
      ["lastMade", "last_made"],
      ["createdAt", "created_at"],
      ["householdId", "household_id"],
      ["household.preferences.privateHousehold", "household.preferences.private_household"],
      ["settings.public", "settings.public"],
      ["orgURL", "org_url"],
      ["updatedAt", "updated_at"],
    ]) {
      expect(recipeAttributes.resolve(a).path).toBe(recipeAttributes.resolve(b).path);
    }
    expect(normalizeAttributePath(" recipe_Category.ID ")).toBe("recipecategory.id");
  });

  it("resolve Mealie's aliases: categories, recipe_category, update_at, group.id", () => {
    const r = makeRecipe({ name: "x", recipeCategory: ["main"], updatedAt: "2024-01-01T00:00:00Z" });
    const names = (p: string) => recipeAttributes.resolve(p).get(r);
    expect(names("categories.name")).toEqual(["main"]);
    expect(names("recipe_category.name")).toEqual(["main"]);
    expect(names("update_at")).toBe("2024-01-01T00:00:00Z");
    expect(names("group.id")).toBe(r.groupId);
    expect(names("tags")).toEqual([]);
  });

  it("declare every RecipeSummary field plus the relation paths the brief lists", () => {
    const paths = new Set(recipeAttributes.paths());
    for (const p of [
      "id",
      "userId",
      "householdId",
      "groupId",
      "name",
      "slug",
      "image",
      "recipeServings",
      "recipeYieldQuantity",
      "recipeYield",
      "totalTime",
      "prepTime",
      "cookTime",
      "performTime",
      "description",
      "rating",
      "orgURL",
      "dateAdded",
      "dateUpdated",
      "createdAt",
      "updatedAt",
      "lastMade",
      "tags.id",
      "tags.name",
      "tags.slug",
      "recipeCategory.id",
      "recipeCategory.name",
      "recipeCategory.slug",
      "categories.id",
      "tools.id",
      "tools.name",
      "tools.slug",
      "user.id",
      "user.username",
      "household.id",
      "household.preferences.privateHousehold",
      "settings.public",
      "settings.locked",
      "recipeIngredient.food.id",
      "recipeIngredient.food.name",
      "group.id",
    ]) {
      expect(paths.has(p), p).toBe(true);
    }
    expect(recipeAttributes.resolve("tags.id")).toMatchObject({ type: "uuid", many: true });
    expect(recipeAttributes.resolve("dateAdded").type).toBe("date");
    expect(recipeAttributes.resolve("lastMade").type).toBe("datetime");
  });

  it("declare the other entities' fields", () => {
    for (const p of ["name", "pluralName", "labelId", "label.name", "createdAt", "updatedAt", "id"])
      expect(foodAttributes.tryResolve(p), p).toBeDefined();
    for (const p of [
      "name",
      "pluralName",
      "abbreviation",
      "useAbbreviation",
      "fraction",
      "id",
      "createdAt",
      "updatedAt",
    ])
      expect(unitAttributes.tryResolve(p), p).toBeDefined();
    for (const p of ["name", "slug", "id", "groupId", "createdAt"])
      expect(organizerAttributes.tryResolve(p), p).toBeDefined();
    for (const p of ["username", "fullName", "email", "admin", "id", "groupId", "householdId"])
      expect(userAttributes.tryResolve(p), p).toBeDefined();
  });

  it("answer an unknown path with a 400 naming it as the client wrote it", () => {
    const err = (() => {
      try {
        recipeAttributes.resolve("tags.colour");
      } catch (e) {
        return e as BadRequestError;
      }
    })();
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err?.body()).toEqual({
      detail: "invalid attribute string: 'tags.colour' does not exist on this schema",
    });
  });

  it("refuse to declare the same path twice under two spellings", () => {
    expect(
      () =>
        new AttributeTable<{ a: string }>("t", {
          lastMade: attr.string((x) => x.a),
          last_made: attr.string((x) => x.a),
        }),
    ).toThrow(/duplicate/);
  });

  it("read to-many organizer values from the index entry", () => {
    const r = makeRecipe({ name: "x", tags: ["a", "b"] });
    expect(recipeAttributes.resolve("tags.id").get(r)).toEqual([tagId("a"), tagId("b")]);
  });
});

describe("recipeRatingOrder", () => {
  const r = makeRecipe({ name: "x", rating: 3 });
  it("prefers the caller's own rating when positive, else the average, 0 counting as none", () => {
    expect(recipeRatingOrder(new Map([[r.id, 5]])).get(r)).toBe(5);
    expect(recipeRatingOrder(new Map([[r.id, 0]])).get(r)).toBe(3);
    expect(recipeRatingOrder().get(r)).toBe(3);
    expect(recipeRatingOrder(() => null).get({ ...r, rating: 0 })).toBeNull();
    expect(recipeRatingOrder().nullPosition).toBe("last");
  });
});

describe("relations", () => {
  type Box = { id: string; label: string | null; tags: string[] };
  type Shelf = { id: string; boxId: string | null; boxIds: string[] };
  const boxes = new Map<string, Box>([
    ["a", { id: "a", label: "Flour", tags: ["dry", "baking"] }],
    ["b", { id: "b", label: null, tags: ["wet"] }],
  ]);
  const boxTable = new AttributeTable<Box>("box", {
    label: attr.string((b: Box) => b.label),
    "tags.name": attr.many("string", (b: Box) => b.tags),
  });
  const shelves = new AttributeTable<Shelf>(
    "shelf",
    { id: attr.string((s: Shelf) => s.id), "box.label": attr.string(() => "flat wins") },
    {
      box: relation.one(
        () => boxTable,
        (s: Shelf) => (s.boxId ? boxes.get(s.boxId) : null),
      ),
    },
  ).withRelations({
    boxes: relation.many(
      () => boxTable,
      (s: Shelf) => s.boxIds.map((id) => boxes.get(id)!),
    ),
  });
  const shelf: Shelf = { id: "s", boxId: "a", boxIds: ["a", "b"] };

  it("read the related item's paths, to-many when either step is, in any spelling", () => {
    expect(shelves.resolve("box.tags.name")).toMatchObject({ path: "box.tags.name", many: true });
    expect(shelves.resolve("Box.TAGS.name").get(shelf)).toEqual(["dry", "baking"]);
    expect(shelves.resolve("boxes.label")).toMatchObject({ many: true });
    expect(shelves.resolve("Boxes.Label").get(shelf)).toEqual(["Flour"]);
    expect(shelves.resolve("boxes.tags.name").get(shelf)).toEqual(["dry", "baking", "wet"]);
    expect(shelves.resolve("box.label").get(shelf)).toBe("flat wins");
  });

  it("read null, or no values, when there is no related item", () => {
    const bare: Shelf = { id: "t", boxId: null, boxIds: [] };
    expect(shelves.resolve("box.tags.name").get(bare)).toEqual([]);
    expect(shelves.resolve("boxes.label").get(bare)).toEqual([]);
  });

  it("answer Mealie's 400 for a path the related table does not have", () => {
    expect(() => shelves.resolve("box.weight")).toThrow(
      "invalid attribute string: 'box.weight' does not exist on this schema",
    );
    expect(() => shelves.resolve("box")).toThrow(BadRequestError);
  });
});
