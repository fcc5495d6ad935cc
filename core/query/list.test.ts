import { describe, expect, it } from "vitest";
import { BadRequestError } from "../errors.js";
import { textRanker } from "../search/text-search.js";
import { RecipeSearchIndex } from "../search/recipe-search.js";
import { recipeAttributes, recipeRatingOrder } from "./attributes.js";
import { listQuery, type ListOptions } from "./list.js";
import type { ListQuery } from "./list-query.js";
import { makeRecipe, tagId } from "./test-recipes.js";

const recipes = Array.from({ length: 9 }, (_, i) =>
  makeRecipe({
    name: `Recipe ${String.fromCharCode(65 + i)}`,
    createdAt: `2024-01-0${i + 1}T00:00:00Z`,
    rating: i % 3 === 0 ? null : i,
    tags: i % 2 ? ["odd"] : ["even"],
    description: i === 4 ? "a chocolate treat" : null,
  }),
);
type R = (typeof recipes)[number];
const opts: ListOptions<R> = {};
const names = (q: ListQuery, o: ListOptions<R> = opts) =>
  listQuery(recipes, q, recipeAttributes, o).items.map((r) => r.name);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("listQuery", () => {
  it("orders by created_at desc when neither orderBy nor search is given", () => {
    expect(names({ perPage: 3 })).toEqual(["Recipe I", "Recipe H", "Recipe G"]);
    expect(names({ perPage: 3, orderDirection: "asc" })).toEqual(["Recipe A", "Recipe B", "Recipe C"]);
  });

  it("filters, then orders, then pages", () => {
    const env = listQuery(
      recipes,
      { queryFilter: "tags.name = odd", orderBy: "name", orderDirection: "asc", perPage: 2, page: 2 },
      recipeAttributes,
      opts,
    );
    expect(env).toMatchObject({ page: 2, perPage: 2, total: 4, totalPages: 2 });
    expect(env.items.map((r) => r.name)).toEqual(["Recipe F", "Recipe H"]);
  });

  it("applies the route's own filter before queryFilter", () => {
    const where = (r: (typeof recipes)[number]) => r.tags.some((t) => t.id === tagId("even"));
    expect(
      names(
        { queryFilter: "rating IS NOT NULL", orderBy: "name", orderDirection: "asc" },
        { ...opts, where },
      ),
    ).toEqual(["Recipe C", "Recipe E", "Recipe I"]);
  });

  it("answers a bad filter or orderBy with 400 even when nothing would match", () => {
    expect(thrown(() => listQuery([], { queryFilter: "nope = 1" }, recipeAttributes, opts))).toBeInstanceOf(
      BadRequestError,
    );
    expect(thrown(() => listQuery([], { orderBy: "nope" }, recipeAttributes, opts))).toBeInstanceOf(
      BadRequestError,
    );
  });

  it("uses the rating override and puts unrated recipes last", () => {
    const mine = new Map([[recipes[1].id, 10]]);
    const got = names(
      { orderBy: "rating", perPage: -1 },
      { ...opts, orderOverrides: { rating: recipeRatingOrder(mine) } },
    );
    expect(got.slice(0, 3)).toEqual(["Recipe B", "Recipe I", "Recipe H"]);
    expect(got.slice(-3)).toEqual(["Recipe A", "Recipe D", "Recipe G"]);
  });

  it("orderBy=random: same first item for the same seed, another for another seed (§14.1 22)", () => {
    const first = (seed: string) =>
      names({ orderBy: "random", paginationSeed: seed, perPage: -1, page: 1 })[0];
    expect(first("abcdefg")).toBe(first("abcdefg"));
    expect(first("abcdefg")).not.toBe(first("gfedcba"));
    const page1 = names({ orderBy: "random", paginationSeed: "s", perPage: 4, page: 1 });
    const page2 = names({ orderBy: "random", paginationSeed: "s", perPage: 4, page: 2 });
    const all = names({ orderBy: "random", paginationSeed: "s", perPage: -1 });
    expect([...page1, ...page2]).toEqual(all.slice(0, 8));
  });

  it("search keeps only matches, ranks them first and lets orderBy break ties", () => {
    const index = RecipeSearchIndex.from(recipes);
    const o = { ...opts, search: index.ranker<(typeof recipes)[number]>() };
    expect(names({ search: "chocolate" }, o)).toEqual(["Recipe E"]);
    expect(names({ search: "recipe", orderBy: "name", orderDirection: "desc", perPage: 3 }, o)).toEqual([
      "Recipe I",
      "Recipe H",
      "Recipe G",
    ]);
    expect(names({ search: "Recipe C" }, o)[0]).toBe("Recipe C");
  });

  it("ignores a blank search and falls back to the default order", () => {
    const o = { ...opts, search: textRanker<(typeof recipes)[number]>([(r) => r.name]) };
    expect(names({ search: "  ", perPage: 1 }, o)).toEqual(["Recipe I"]);
  });

  it("works with a text ranker for small lists", () => {
    const o = {
      ...opts,
      search: textRanker<(typeof recipes)[number]>([(r) => r.name, (r) => r.description]),
    };
    expect(names({ search: "treat" }, o)).toEqual(["Recipe E"]);
  });
});
