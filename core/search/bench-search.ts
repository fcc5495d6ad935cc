/**
 * Micro-benchmark (not a test): `npx tsx core/search/bench-search.ts [count]`. Builds the recipe search
 * index over synthetic recipes and prints build time and query latency percentiles, plus full
 * `listQuery` calls (filter + search + order + page) over the same recipes.
 */
import { recipeAttributes, recipeRatingOrder } from "../query/attributes.js";
import { listQuery } from "../query/list.js";
import type { ListQuery } from "../query/list-query.js";
import { RecipeSearchIndex } from "./recipe-search.js";
import { syntheticRecipes } from "./synthetic-recipes.js";

const count = Number(process.argv[2] ?? 10_000);
const recipes = syntheticRecipes(count);

function percentiles(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2);
  return `p50 ${at(0.5)}  p90 ${at(0.9)}  p99 ${at(0.99)} ms`;
}

// Wall time suffers when other processes share the CPU; process CPU time much less so. Both are
// reported: on a quiet machine they agree (CPU time also counts GC helper threads).
type Sample = { wall: number; cpu: number };
function time<R>(fn: () => R): [R, Sample] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return [r, { wall, cpu: (c.user + c.system) / 1000 }];
}
function report(samples: Sample[]): string {
  return `wall ${percentiles(samples.map((x) => x.wall))} | cpu ${percentiles(samples.map((x) => x.cpu))}`;
}

const [index, build] = time(() => RecipeSearchIndex.from(recipes));
console.log(
  `recipes: ${count}  index build: wall ${build.wall.toFixed(0)} ms, cpu ${build.cpu.toFixed(0)} ms  heap: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);

const QUERIES = [
  "chicken",
  "creme brulee",
  "choclate cake",
  "garlic butter shrimp",
  "spicy",
  "ch",
  "pasta tomato basil",
  '"lemon cake"',
  "ratat",
  "brocoli",
  "cheesy potato gratin",
  "vegan curry",
  "salmon",
  "quick easy dinner",
  "a",
  "mushroom risotto",
  "kalolo",
  "zzzzqqq",
  "strawbery tart",
  "soup",
];
const perQuery = new Map<string, Sample[]>();
const all: Sample[] = [];
for (let round = 0; round < 30; round++) {
  for (const q of QUERIES) {
    const [, ms] = time(() => index.search(q));
    if (round >= 3) {
      all.push(ms);
      perQuery.set(q, [...(perQuery.get(q) ?? []), ms]);
    }
  }
}
console.log(`search, all queries:         ${report(all)}`);
for (const [q, samples] of perQuery) {
  console.log(
    `  ${JSON.stringify(q).padEnd(24)} ${String(index.search(q).length).padStart(5)} hits  ${report(samples)}`,
  );
}

const ranker = index.ranker<(typeof recipes)[number]>();
const lists: Record<string, ListQuery> = {
  "default page": {},
  "filter+order": {
    queryFilter: "tags.name IN [dinner, lunch] AND rating >= 3 AND lastMade IS NOT NULL",
    orderBy: "name",
    orderDirection: "asc",
  },
  "search+filter": { search: "chicken curry", queryFilter: "settings.public = true" },
  "rating order": { orderBy: "rating", perPage: 20, page: 3 },
  "random page": { orderBy: "random", paginationSeed: "abc", perPage: 50, page: 2 },
  "random, all 10k": { orderBy: "random", paginationSeed: "abc", perPage: -1 },
};
const listOpts = { search: ranker, orderOverrides: { rating: recipeRatingOrder() } };
// Warm up every list shape first (JIT, timestamp memo), so each line below measures steady state.
for (let i = 0; i < 5; i++)
  for (const query of Object.values(lists)) listQuery(recipes, query, recipeAttributes, listOpts);
for (const [label, query] of Object.entries(lists)) {
  const samples: Sample[] = [];
  for (let i = 0; i < 30; i++) {
    const [, ms] = time(() => listQuery(recipes, query, recipeAttributes, listOpts));
    if (i >= 3) samples.push(ms);
  }
  console.log(`listQuery ${label.padEnd(19)} ${report(samples)}`);
}
