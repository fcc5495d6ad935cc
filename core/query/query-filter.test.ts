import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BadRequestError } from "../errors.js";
import {
  MAX_NESTING,
  parseQueryFilter,
  queryFilterParts,
  snakePath,
  type FilterNode,
} from "./query-filter.js";

const cmp = (attribute: string, op: string, value: string | string[] | null) =>
  expect.objectContaining({ kind: "cmp", attribute, op, value });

function detailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BadRequestError);
    const err = e as BadRequestError;
    expect(err.status).toBe(400);
    const body = err.body();
    expect(typeof body.detail).toBe("string");
    return body.detail as string;
  }
  throw new Error("expected a 400");
}

describe("parseQueryFilter: comparisons", () => {
  it.each(["=", "<>", ">", "<", ">=", "<="])(
    "parses the symbolic operator %s with or without spaces",
    (op) => {
      expect(parseQueryFilter(`rating ${op} 3`)).toEqual(cmp("rating", op, "3"));
      expect(parseQueryFilter(`rating${op}3`)).toEqual(cmp("rating", op, "3"));
    },
  );

  it('reads createdAt>"2024-01-01" without spaces (mealie-api-notes §3)', () => {
    expect(parseQueryFilter('createdAt>"2024-01-01"')).toEqual(cmp("createdAt", ">", "2024-01-01"));
  });

  it("keeps spaces inside double quotes and strips the quotes", () => {
    expect(parseQueryFilter('name="test unit 2"')).toEqual(cmp("name", "=", "test unit 2"));
  });

  it("reads single-quoted values as SQL writes them, and keeps an apostrophe inside a bare word", () => {
    expect(parseQueryFilter("name = 'Ginger Lime Cooler'")).toEqual(cmp("name", "=", "Ginger Lime Cooler"));
    expect(parseQueryFilter(`name = 'say "hi"'`)).toEqual(cmp("name", "=", 'say "hi"'));
    expect(parseQueryFilter(`name = "Grandma's Pie"`)).toEqual(cmp("name", "=", "Grandma's Pie"));
    expect(parseQueryFilter("name = Grandma's")).toEqual(cmp("name", "=", "Grandma's"));
    expect(parseQueryFilter(`tags.name IN ['Quick Meals', "Kid's", Grandma's]`)).toEqual(
      cmp("tags.name", "IN", ["Quick Meals", "Kid's", "Grandma's"]),
    );
    expect(detailOf(() => parseQueryFilter("name = 'unterminated"))).toContain("unterminated quoted string");
  });

  it("reads bare dates and timestamps as values", () => {
    expect(parseQueryFilter("date >= 2024-01-01 AND date <= 2024-01-31")).toEqual({
      kind: "and",
      children: [cmp("date", ">=", "2024-01-01"), cmp("date", "<=", "2024-01-31")],
    });
    expect(parseQueryFilter("createdAt > 2024-01-01T00:00:00+02:00")).toEqual(
      cmp("createdAt", ">", "2024-01-01T00:00:00+02:00"),
    );
  });

  it.each([
    ["lastMade IS NULL", "IS"],
    ["lastMade is null", "IS"],
    ["lastMade IS NONE", "IS"],
    ["lastMade Is None", "IS"],
    ["lastMade IS NOT NULL", "IS NOT"],
    ["lastMade is not none", "IS NOT"],
  ])("parses %s with any keyword case", (src, op) => {
    expect(parseQueryFilter(src)).toEqual(cmp("lastMade", op, null));
  });

  it("parses IN, NOT IN and CONTAINS ALL lists with bare and quoted items", () => {
    expect(parseQueryFilter("tags.name IN [a, b]")).toEqual(cmp("tags.name", "IN", ["a", "b"]));
    expect(parseQueryFilter('name NOT IN ["test unit 1", x]')).toEqual(
      cmp("name", "NOT IN", ["test unit 1", "x"]),
    );
    expect(parseQueryFilter('tags.id CONTAINS ALL ["u1","u2"]')).toEqual(
      cmp("tags.id", "CONTAINS ALL", ["u1", "u2"]),
    );
    expect(parseQueryFilter("rating in [1, 3]")).toEqual(cmp("rating", "IN", ["1", "3"]));
    expect(parseQueryFilter("rating not in[1,3]")).toEqual(cmp("rating", "NOT IN", ["1", "3"]));
    expect(parseQueryFilter("tags.id contains all [x]")).toEqual(cmp("tags.id", "CONTAINS ALL", ["x"]));
  });

  it("accepts an empty list and a trailing comma", () => {
    expect(parseQueryFilter("name IN []")).toEqual(cmp("name", "IN", []));
    expect(parseQueryFilter("name IN [a, b,]")).toEqual(cmp("name", "IN", ["a", "b"]));
  });

  it("keeps commas and brackets inside quoted list items", () => {
    expect(parseQueryFilter('name IN ["a, b", "[c]"]')).toEqual(cmp("name", "IN", ["a, b", "[c]"]));
  });

  it("parses LIKE and NOT LIKE with SQL wildcards left intact", () => {
    expect(parseQueryFilter('name LIKE "test u_it%"')).toEqual(cmp("name", "LIKE", "test u_it%"));
    expect(parseQueryFilter('name not like "%unit 1"')).toEqual(cmp("name", "NOT LIKE", "%unit 1"));
  });

  it("does not mistake keywords inside names for operators: `rating > 2` is not IN", () => {
    expect(parseQueryFilter("rating > 2")).toEqual(cmp("rating", ">", "2"));
    expect(parseQueryFilter("ingredients.name = x")).toEqual(cmp("ingredients.name", "=", "x"));
    expect(parseQueryFilter("isolated IS NULL")).toEqual(cmp("isolated", "IS", null));
    expect(parseQueryFilter("notes = x")).toEqual(cmp("notes", "=", "x"));
  });

  it("treats keywords in value position as plain values", () => {
    expect(parseQueryFilter("name = AND")).toEqual(cmp("name", "=", "AND"));
    expect(parseQueryFilter('name = "OR"')).toEqual(cmp("name", "=", "OR"));
  });
});

describe("parseQueryFilter: logic and grouping", () => {
  it("matches AND and OR case-insensitively as whole words", () => {
    expect(parseQueryFilter("a = 1 and b = 2 Or c = 3")).toEqual({
      kind: "and",
      children: [cmp("a", "=", "1"), { kind: "or", children: [cmp("b", "=", "2"), cmp("c", "=", "3")] }],
    });
    // "android" and "order" are attribute names, not AND/OR.
    expect(parseQueryFilter("android = 1 AND order = 2")).toEqual({
      kind: "and",
      children: [cmp("android", "=", "1"), cmp("order", "=", "2")],
    });
  });

  it("combines AND and OR from the right with equal precedence, as Mealie's builder folds them", () => {
    expect(parseQueryFilter("a=1 OR b=2 AND c=3")).toEqual({
      kind: "or",
      children: [cmp("a", "=", "1"), { kind: "and", children: [cmp("b", "=", "2"), cmp("c", "=", "3")] }],
    });
    // Not SQL's (a AND b) OR c: Mealie reads this as a AND (b OR c), and so must we.
    expect(parseQueryFilter("a=1 AND b=2 OR c=3")).toEqual({
      kind: "and",
      children: [cmp("a", "=", "1"), { kind: "or", children: [cmp("b", "=", "2"), cmp("c", "=", "3")] }],
    });
    expect(parseQueryFilter("a=1 AND b=2 AND c=3 OR d=4")).toEqual({
      kind: "and",
      children: [
        cmp("a", "=", "1"),
        cmp("b", "=", "2"),
        { kind: "or", children: [cmp("c", "=", "3"), cmp("d", "=", "4")] },
      ],
    });
    // Parentheses still decide.
    expect(parseQueryFilter("(a=1 AND b=2) OR c=3")).toEqual({
      kind: "or",
      children: [{ kind: "and", children: [cmp("a", "=", "1"), cmp("b", "=", "2")] }, cmp("c", "=", "3")],
    });
  });

  it("groups with nested parentheses (the Mealie docs example)", () => {
    const node = parseQueryFilter(
      'name="test unit 1" OR (useAbbreviation=f AND (name="x" OR createdAt > "2024-01-01T00:00:00"))',
    );
    expect(node).toEqual({
      kind: "or",
      children: [
        cmp("name", "=", "test unit 1"),
        {
          kind: "and",
          children: [
            cmp("useAbbreviation", "=", "f"),
            { kind: "or", children: [cmp("name", "=", "x"), cmp("createdAt", ">", "2024-01-01T00:00:00")] },
          ],
        },
      ],
    });
  });

  it("parses the cookbook-style combination of CONTAINS ALL and IN", () => {
    expect(parseQueryFilter('recipeCategory.id CONTAINS ALL ["c1","c2"] AND tags.id IN ["t3"]')).toEqual({
      kind: "and",
      children: [cmp("recipeCategory.id", "CONTAINS ALL", ["c1", "c2"]), cmp("tags.id", "IN", ["t3"])],
    });
  });

  it("returns null for a blank filter", () => {
    expect(parseQueryFilter("")).toBeNull();
    expect(parseQueryFilter("   ")).toBeNull();
    expect(parseQueryFilter(undefined)).toBeNull();
  });
});

describe("parseQueryFilter: errors are 400 with a plain-string detail", () => {
  it.each([
    ["(name = x", "parenthesis are unbalanced"],
    ["name = x)", "parenthesis are unbalanced"],
    ["((name = x)", "parenthesis are unbalanced"],
    ['name IS "x"', "'IS' can only be used with 'NULL' or 'NONE'"],
    ["name IS NOT x", "'IS NOT' can only be used"],
    ['name IN "x"', "'IN' must be followed by a list"],
    ["name NOT IN x", "'NOT IN' must be followed by a list"],
    ["tags.id CONTAINS ALL x", "'CONTAINS ALL' must be followed by a list"],
    ["name = [a, b]", "a list can only be used with IN"],
    ['name = "unterminated', "unterminated quoted string"],
    ["name IN [a, b", "unterminated list"],
    ["name", "expected an operator after 'name'"],
    ["name =", "expected a value"],
    ["name x y", "expected an operator"],
    ["name = x y = z", "unexpected 'y'"],
    ["name = x AND", "expected an attribute name"],
    ["AND name = x", "expected an operator after 'AND'"],
    ["()", "empty parentheses"],
    ["name = x, y", "unexpected ','"],
    ["name ! x", "expected an operator"],
  ])("%s → 400", (src, fragment) => {
    const detail = detailOf(() => parseQueryFilter(src));
    expect(detail.startsWith("invalid query string: ")).toBe(true);
    expect(detail).toContain(fragment);
  });

  it("refuses parentheses nested past the limit with a 400, not a stack overflow", () => {
    const nested = (n: number) => `${"(".repeat(n)}name = x${")".repeat(n)}`;
    expect(parseQueryFilter(nested(MAX_NESTING))).toEqual(cmp("name", "=", "x"));
    expect(detailOf(() => parseQueryFilter(nested(MAX_NESTING + 1)))).toBe(
      `invalid query string: parentheses are nested more than ${MAX_NESTING} levels deep`,
    );
    // A 10,000-character filter, the most a cookbook or a plan rule stores.
    expect(detailOf(() => parseQueryFilter(nested(4995)))).toContain("nested more than");
  });

  it("never throws anything but a 400 on arbitrary input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (src) => {
        try {
          parseQueryFilter(src);
        } catch (e) {
          return e instanceof BadRequestError && e.status === 400;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it("parses any generated well-formed filter back to the same tree", () => {
    const attrName = fc.constantFrom("name", "tags.name", "recipe_category.id", "lastMade");
    const value = fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('"'));
    const leaf = fc
      .record({ attribute: attrName, op: fc.constantFrom("=", "<>", ">=", "LIKE"), value })
      .map((c): FilterNode => ({
        kind: "cmp",
        attribute: c.attribute,
        op: c.op as "=",
        value: c.value,
        raw: c.value,
      }));
    const tree = fc.letrec<{ node: FilterNode }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        leaf,
        fc.record({
          kind: fc.constantFrom("and" as const, "or" as const),
          children: fc.array(tie("node"), { minLength: 2, maxLength: 3 }),
        }),
      ),
    })).node;
    const print = (n: FilterNode): string =>
      n.kind === "cmp"
        ? `${n.attribute} ${n.op} "${n.value as string}"`
        : `(${n.children.map(print).join(` ${n.kind.toUpperCase()} `)})`;
    const flatten = (n: FilterNode): FilterNode =>
      n.kind === "cmp"
        ? n
        : {
            kind: n.kind,
            children: n.children
              .map(flatten)
              .flatMap((c) => (c.kind === n.kind ? (c as { children: FilterNode[] }).children : [c])),
          };
    fc.assert(
      fc.property(tree, (t) => {
        expect(flatten(parseQueryFilter(print(t))!)).toEqual(flatten(t));
      }),
      { numRuns: 300 },
    );
  });
});

describe("queryFilterParts (the stored JSON form)", () => {
  it("records parentheses, logical operators, snake_case names and literal values", () => {
    expect(
      queryFilterParts(
        '(recipeCategory.id IN ["a"] OR tags.name = "Quick Meals") AND settings.public = TRUE',
      ),
    ).toEqual({
      parts: [
        {
          leftParenthesis: "(",
          rightParenthesis: null,
          logicalOperator: null,
          attributeName: "recipe_category.id",
          relationalOperator: "IN",
          value: ["a"],
        },
        {
          leftParenthesis: null,
          rightParenthesis: ")",
          logicalOperator: "OR",
          attributeName: "tags.name",
          relationalOperator: "=",
          value: "Quick Meals",
        },
        {
          leftParenthesis: null,
          rightParenthesis: null,
          logicalOperator: "AND",
          attributeName: "settings.public",
          relationalOperator: "=",
          value: "TRUE",
        },
      ],
    });
  });

  it("stacks nested parentheses into one string", () => {
    const { parts } = queryFilterParts("((a = 1 OR b = 2) AND c IS NULL)");
    expect(parts.map((p) => [p.leftParenthesis, p.rightParenthesis])).toEqual([
      ["((", null],
      [null, ")"],
      [null, ")"],
    ]);
    expect(parts[2]).toMatchObject({ relationalOperator: "IS", value: "NULL" });
  });

  it("is empty for a blank filter", () => {
    expect(queryFilterParts("")).toEqual({ parts: [] });
  });

  it("converts camelCase path segments to snake_case", () => {
    expect(snakePath("household.preferences.privateHousehold")).toBe(
      "household.preferences.private_household",
    );
    expect(snakePath("lastMade")).toBe("last_made");
  });
});
