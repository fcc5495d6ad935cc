import { describe, expect, it } from "vitest";
import { prng } from "../search/synthetic-recipes.js";
import { recipeAttributes, recipeRatingOrder } from "./attributes.js";
import { columnTable, liveColumns } from "./columns.js";
import { listQuery } from "./list.js";
import type { ListQuery } from "./list-query.js";
import { makeRecipe } from "./test-recipes.js";

// Values chosen to collide: equal names up to case and accents, nulls, equal dates and ratings, so
// ties and null placement are where the two tables could differ.
const rnd = prng(11);
const pick = <T>(l: readonly T[]): T => l[Math.floor(rnd() * l.length)];
const NAMES = [
  "Éclair",
  "eclair",
  "Apple pie",
  "apple Pie",
  "Zucchini",
  "ratatouille",
  "Crème brûlée",
  "Soup",
];
const DAYS = [null, "2023-01-01", "2023-06-15", "2024-02-29", "2022-12-31"];
const TIMES = [null, "2024-01-01T10:00:00.123456Z", "2024-01-01T10:00:00Z", "2023-05-05T00:00:00+02:00"];
const recipes = Array.from({ length: 400 }, (_, i) =>
  makeRecipe({
    name: `${pick(NAMES)}${i % 3 === 0 ? "" : ` ${i % 17}`}`,
    id: undefined,
    slug: `r-${i}`,
    recipeServings: pick([0, 2, 4, 6, 8]),
    rating: pick([null, 1, 3, 3, 5]),
    dateAdded: pick(DAYS),
    createdAt: pick(TIMES),
    updatedAt: pick(TIMES),
    lastMade: pick(TIMES),
    description: pick([null, "", "quick dinner", "Sunday"]),
    tags: [pick(["dinner", "weeknight", "Dessert"]), pick(["dinner", "party"])],
    tools: rnd() < 0.5 ? [pick(["Oven", "Skillet", "Wok"])] : [],
  }),
).map((r, i) => ({ ...r, id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` }));

const QUERIES: ListQuery[] = [
  { orderBy: "name", orderDirection: "asc" },
  { orderBy: "name", orderDirection: "desc", perPage: -1 },
  { orderBy: "dateAdded", orderByNullPosition: "first" },
  { orderBy: "lastMade", orderDirection: "asc", page: 3, perPage: 25 },
  { orderBy: "rating,name:asc" },
  { orderBy: "tags.name", orderDirection: "asc" },
  { queryFilter: 'tags.name IN ["dinner", "weeknight"] AND recipeServings >= 4', orderBy: "name" },
  { queryFilter: 'dateAdded >= "2023-01-01" AND description IS NOT NULL', orderBy: "dateAdded" },
  { queryFilter: 'lastMade > "2024-01-01T10:00:00Z" OR tools.name = "Wok"', orderBy: "updatedAt" },
  { queryFilter: 'name LIKE "%clair%" AND tags.name CONTAINS ALL ["dinner"]' },
  { queryFilter: 'tags.name NOT IN ["party"] AND rating <> 3', orderBy: "createdAt:asc" },
  { orderBy: "random", paginationSeed: "seed-1", perPage: 10 },
  { perPage: 40, page: 2 },
];

describe("columnTable", () => {
  const columns = columnTable(recipeAttributes, recipes);
  const positions = recipes.map((_, i) => i);
  it.each(QUERIES)("gives the list the item table gives: %o", (query) => {
    const rating = recipeRatingOrder();
    const byItem = listQuery(recipes, { perPage: 30, ...query }, recipeAttributes, {
      orderOverrides: { rating },
    });
    const byColumn = listQuery(positions, { perPage: 30, ...query }, columns, {
      orderOverrides: { rating: { ...rating, get: (at: number) => rating.get(recipes[at]) } },
    });
    expect(byItem.items.length).toBeGreaterThan(0);
    expect({ ...byColumn, items: byColumn.items.map((at) => recipes[at].slug) }).toEqual({
      ...byItem,
      items: byItem.items.map((r) => r.slug),
    });
  });

  it("ranks the same when it starts from the order of the listing before a change", () => {
    const before = columnTable(recipeAttributes, recipes);
    const orders = ["name", "dateAdded", "lastMade:asc", "rating"];
    const page = (table: typeof before, items: typeof recipes, orderBy: string) =>
      listQuery(
        items.map((_, i) => i),
        { orderBy, perPage: -1 },
        table,
      ).items.map((at) => items[at].slug);
    for (const o of orders) page(before, recipes, o); // ranks computed, so the next table reuses them
    // Some recipes renamed (new objects), some gone, some new, the rest in another order.
    const changed = recipes
      .filter((_, i) => i % 13 !== 0)
      .map((r, i) => (i % 7 === 0 ? { ...r, name: `${r.name} renamed`, lastMade: null } : r))
      .concat([
        makeRecipe({ name: "Aardvark stew", slug: "new-1" }),
        makeRecipe({ name: "Zzz", slug: "new-2" }),
      ])
      .reverse();
    const reused = columnTable(recipeAttributes, changed, before);
    const fresh = columnTable(recipeAttributes, changed);
    for (const o of orders) expect(page(reused, changed, o)).toEqual(page(fresh, changed, o));
  });

  it("follows its array through replaced, removed and appended items as a fresh table would", () => {
    const items = recipes.slice(0, 120);
    const live = liveColumns(recipeAttributes, items);
    const page = (table: typeof columns, query: ListQuery) =>
      listQuery(
        items.map((_, i) => i),
        { perPage: -1, ...query },
        table,
      ).items.map((at) => items[at].slug);
    for (const q of QUERIES) page(live.table, q); // values and ranks built, so patches touch them
    const step = rnd;
    for (let i = 0; i < 60; i++) {
      const r = step();
      const at = Math.floor(step() * items.length);
      const other = recipes[120 + i];
      if (r < 0.5) {
        items[at] = { ...other, id: items[at].id, slug: items[at].slug };
        live.replaced(at);
      } else if (r < 0.75) {
        items.splice(at, 1);
        live.removed(at);
      } else {
        items.push(other);
        live.appended();
      }
      if (i % 10 === 9) {
        const fresh = columnTable(recipeAttributes, items);
        for (const q of QUERIES.filter((q) => q.orderBy !== "random"))
          expect([q, page(live.table, q)]).toEqual([q, page(fresh, q)]);
      }
    }
  });

  it("reads a page of a one-attribute order off the kept order as sortItems orders it", () => {
    const items = recipes.slice(0, 150);
    const live = liveColumns(recipeAttributes, items);
    const check = () => {
      const positions = items.map((_, i) => i);
      for (const path of ["name", "dateAdded", "lastMade", "createdAt", "rating", "recipeServings"])
        for (const direction of ["asc", "desc"] as const)
          for (const nulls of [null, "first", "last"] as const)
            for (const end of [0, 7, 30, items.length]) {
              const want = listQuery(
                positions,
                { orderBy: path, orderDirection: direction, orderByNullPosition: nulls, perPage: end || 1 },
                live.table,
              ).items.slice(0, end);
              const nullsFirst = nulls ? nulls === "first" : direction === "asc";
              expect([
                path,
                direction,
                nulls,
                end,
                live.orderedPrefix(path, direction, nullsFirst, end),
              ]).toEqual([path, direction, nulls, end, want]);
            }
    };
    check();
    for (let i = 0; i < 30; i++) {
      const at = Math.floor(rnd() * items.length);
      if (i % 3 === 0) {
        items[at] = { ...recipes[200 + i], id: items[at].id };
        live.replaced(at);
      } else if (i % 3 === 1) {
        items.splice(at, 1);
        live.removed(at);
      } else {
        items.push(recipes[200 + i]);
        live.appended();
      }
    }
    check();
    expect(live.orderedPrefix("tags.name", "asc", true, 5)).toBeNull();
  });

  it("reads a deep page of an order as the same places of the whole order, nulls included", () => {
    const items = recipes.slice(0, 150);
    const live = liveColumns(recipeAttributes, items);
    for (const path of ["name", "dateAdded", "lastMade", "rating"])
      for (const direction of ["asc", "desc"] as const)
        for (const nullsFirst of [true, false]) {
          const whole = live.orderedPrefix(path, direction, nullsFirst, items.length)!;
          for (const [start, end] of [
            [0, 7],
            [30, 60],
            [140, 150],
            [149, 150],
            [150, 150],
          ])
            expect([
              path,
              direction,
              nullsFirst,
              start,
              live.orderedPrefix(path, direction, nullsFirst, end, start),
            ]).toEqual([path, direction, nullsFirst, start, whole.slice(start, end)]);
        }
  });

  it("rejects what the item table rejects, with the same message", () => {
    const run = (table: typeof columns | typeof recipeAttributes, items: unknown[]) => () =>
      listQuery(items as never[], { queryFilter: 'nope = "x"' }, table as never);
    expect(run(columns, positions)).toThrow(/invalid attribute string: 'nope'/);
    expect(run(recipeAttributes, recipes)).toThrow(/invalid attribute string: 'nope'/);
  });
});
