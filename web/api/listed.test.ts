import { describe, expect, it } from "vitest";
import type { ApiContext } from "./context.js";
import { answerPage, answerPageBytes } from "./listed.js";
import { parseRecipeListQuery, queryRecord } from "./list-query.js";

const items = [
  { id: "a", name: 'Crème "brûlée"', tags: [{ name: "items" }], note: '"items":[' },
  { id: "b", name: "Soup", tags: [], note: null },
  { id: "c", name: "☃ snow\ncake", tags: [], note: "\u2028" },
];

describe("a list page spliced from each item's JSON", () => {
  it("is byte for byte the JSON of the envelope answerPage builds", () => {
    for (const search of ["", "?search=%22items%22%3A%5B&perPage=2&page=2", "?perPage=1&page=2&tags=x"]) {
      const ctx = { query: new URLSearchParams(search) } as unknown as ApiContext;
      const query = parseRecipeListQuery(queryRecord(ctx.query));
      for (const page of [
        { page: 2, perPage: 1, total: 3, totalPages: 3, items: items.slice(1, 2) },
        { page: 1, perPage: 50, total: 3, totalPages: 1, items },
        { page: 4, perPage: 1, total: 3, totalPages: 3, items: [] },
      ]) {
        const bytes = answerPageBytes(
          ctx,
          "/api/recipes",
          query,
          page,
          (i) => Buffer.from(JSON.stringify(i)),
          {
            nulls: "drop",
          },
        ).bytes;
        const text = JSON.stringify(answerPage(ctx, "/api/recipes", query, page, { nulls: "drop" }));
        expect(bytes.equals(Buffer.from(text))).toBe(true);
      }
    }
  });
});
