import { describe, expect, it } from "vitest";
import { ValidationError } from "../../core/errors.js";
import { recipeAttributes } from "../../core/query/attributes.js";
import { listQuery, type SearchRanker } from "../../core/query/list.js";
import type { ListQuery } from "../../core/query/list-query.js";
import { makeRecipe } from "../../core/query/test-recipes.js";
import { RecipeSearchIndex } from "../../core/search/recipe-search.js";
import {
  linkParams,
  parseListQuery,
  parseRecipeListQuery,
  parseRecipeListQueryWithSchemas,
  parseSuggestionQuery,
  plainRecipeListQuery,
} from "./list-query.js";
import { envelope, type QueryRecord } from "./page-links.js";

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("parseListQuery", () => {
  it("defaults to page 1, perPage 50, desc", () => {
    expect(parseListQuery({})).toMatchObject({ page: 1, perPage: 50, orderDirection: "desc" });
  });

  it("coerces numbers, takes the last of repeated values and accepts snake_case keys", () => {
    expect(parseListQuery({ page: ["1", "3"], per_page: "10", order_by: "name" })).toMatchObject({
      page: 3,
      perPage: 10,
      orderBy: "name",
    });
  });

  it.each([
    [{ page: "two" }, "page"],
    [{ perPage: "1.5" }, "perPage"],
    [{ page: "" }, "page"],
    [{ orderDirection: "up" }, "orderDirection"],
    [{ orderByNullPosition: "middle" }, "orderByNullPosition"],
  ])("answers %j with 422", (q, field) => {
    const e = thrown(() => parseListQuery(q));
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).status).toBe(422);
    expect((e as ValidationError).issues[0].loc).toEqual(["query", field]);
  });

  it("requires paginationSeed for orderBy=random (422)", () => {
    const e = thrown(() => parseListQuery({ orderBy: "random" })) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.issues[0]).toMatchObject({
      loc: ["query", "paginationSeed"],
      msg: "paginationSeed is required when orderBy is random",
    });
  });

  it("reads an empty text parameter as not given", () => {
    expect(parseListQuery({ orderBy: "", queryFilter: "", search: "" })).toMatchObject({
      orderBy: null,
      queryFilter: null,
      search: null,
    });
  });
});

it("keeps URLs away from core: the compiler refuses a URL where a ListQuery goes", () => {
  // @ts-expect-error a URL has `search` too, but it is parsed here, never handed to core
  const q: ListQuery = new URL("http://x/?search=soup");
  expect(q).toBeInstanceOf(URL);
});

describe("parseRecipeListQuery", () => {
  it("reads repeated and comma-separated organizer values and FastAPI's booleans", () => {
    expect(
      parseRecipeListQuery({ tags: ["a,b", " c "], requireAllTags: "yes", cookbook: "weeknights" }),
    ).toMatchObject({
      tags: ["a", "b", "c"],
      categories: [],
      requireAllTags: true,
      requireAllFoods: false,
      cookbook: "weeknights",
    });
  });

  it("answers a require-all value that is no boolean with 422", () => {
    const e = thrown(() => parseRecipeListQuery({ requireAllTags: "maybe" })) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.issues[0].loc).toEqual(["query", "requireAllTags"]);
  });
});

describe("the quick reading of a recipe list query", () => {
  const schemas = (q: QueryRecord): unknown => {
    try {
      return parseRecipeListQueryWithSchemas(q);
    } catch (e) {
      return e;
    }
  };
  // Values the quick reading takes, then values it leaves to the schemas (or that the schemas refuse).
  const values: Record<string, [string[], string[]]> = {
    page: [
      ["1", " 3 ", "+2", "-1", "0"],
      ["x", "1.5", "", "12345678901234567890"],
    ],
    perPage: [
      ["30", "-1"],
      ["abc", ""],
    ],
    orderBy: [
      ["name", "", "dateAdded"],
      ["random", " Random "],
    ],
    orderDirection: [
      ["asc", "DESC"],
      ["up", ""],
    ],
    orderByNullPosition: [
      ["first", "Last"],
      ["middle", ""],
    ],
    queryFilter: [['name = "x"', ""], []],
    paginationSeed: [["7", ""], []],
    search: [["chicken", "", "  "], []],
    tags: [["a,b", " c ", ",", ""], []],
    categories: [["Main"], []],
    households: [["x,y"], []],
    requireAllTags: [
      ["yes", "OFF"],
      ["maybe", ""],
    ],
    requireAllFoods: [["t"], []],
    cookbook: [["weeknights", ""], []],
    per_page: [[], ["10"]],
    other: [[], ["1"]],
  };
  it("answers exactly what the schemas answer, or leaves the query to them", () => {
    const keys = Object.keys(values);
    let quick = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      let r = seed;
      const next = (n: number) => {
        r = (Math.imul(r ^ (r >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
        return (r >>> 0) % n;
      };
      const q: Record<string, string | string[]> = {};
      for (const k of keys) {
        if (next(3) !== 0) continue;
        const [good, bad] = values[k];
        const vs = bad.length && (next(10) === 0 || !good.length) ? bad : good;
        q[k] = next(12) === 0 ? [vs[next(vs.length)], vs[next(vs.length)]] : vs[next(vs.length)];
      }
      const plain = plainRecipeListQuery(q);
      if (plain === null) continue;
      quick++;
      expect(plain, JSON.stringify(q)).toStrictEqual(schemas(q));
    }
    expect(quick).toBeGreaterThan(100);
    expect(plainRecipeListQuery({ search: "x", perPage: "30" })).toStrictEqual(
      parseRecipeListQueryWithSchemas({ search: "x", perPage: "30" }),
    );
  });
});

describe("parseSuggestionQuery", () => {
  it("reads the foods and tools at hand and the limits; a negative limit is a 422", () => {
    expect(
      parseSuggestionQuery({ "foods[]": ["f1", "f2"], limit: "3", includeFoodsOnHand: "false" }),
    ).toMatchObject({ foods: ["f1", "f2"], tools: [], limit: 3, includeFoodsOnHand: false });
    const e = thrown(() => parseSuggestionQuery({ limit: "-1" })) as ValidationError;
    expect(e.issues[0].loc).toEqual(["query", "limit"]);
  });
});

describe("a request's list through core and back in the envelope", () => {
  const recipes = Array.from({ length: 9 }, (_, i) =>
    makeRecipe({
      name: `Recipe ${String.fromCharCode(65 + i)}`,
      createdAt: `2024-01-0${i + 1}T00:00:00Z`,
      tags: i % 2 ? ["odd"] : ["even"],
    }),
  );
  const answer = (request: QueryRecord, search?: SearchRanker<(typeof recipes)[number]>) => {
    const q = parseListQuery(request);
    return envelope(listQuery(recipes, q, recipeAttributes, { search }), q, {
      route: "/api/recipes",
      extraParams: linkParams(request),
    });
  };

  it("filters, then orders, then pages, and points back with the request's parameters", () => {
    const env = answer({
      queryFilter: "tags.name = odd",
      orderBy: "name",
      orderDirection: "asc",
      perPage: "2",
      page: "2",
    });
    expect(env).toMatchObject({ page: 2, per_page: 2, total: 4, total_pages: 2, next: null });
    expect(env.items.map((r) => r.name)).toEqual(["Recipe F", "Recipe H"]);
    expect(env.previous).toBe(
      "/api/recipes?page=1&perPage=2&orderBy=name&orderDirection=asc&queryFilter=tags.name+%3D+odd",
    );
  });

  it("repeats search and the route's own parameters in next", () => {
    const index = RecipeSearchIndex.from(recipes);
    const env = answer({ search: "recipe", perPage: "2", tags: ["t"] }, index.ranker());
    expect(env.next).toBe("/api/recipes?page=2&perPage=2&orderDirection=desc&search=recipe&tags=t");
  });

  it("leaves out the parameters a route asks it to", () => {
    expect(linkParams({ start_date: "2024-01-01", page: "2", search: "x" }, ["start_date"])).toEqual({
      search: "x",
    });
  });
});
