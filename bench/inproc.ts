/**
 * `npx tsx bench/inproc.ts DIR [--gen N]`: the list and search path in process, without HTTP, over a
 * data folder (generated with --gen). For measuring a change to core/search or core/query quickly;
 * `npm run bench` measures the served figures.
 */
import { existsSync } from "node:fs";
import { Larder } from "../core/larder.js";
import { loadConfig } from "../core/config.js";
import { consoleLogger } from "../core/log/logger.js";
import { generateFolder } from "./generate.js";
import { FILTER_QUERIES, NEW_SEARCHES, SEARCH_TERMS } from "./measure.js";
import { percentile } from "./http.js";
import { parseRecipeListQuery, queryRecord } from "../web/api/list-query.js";

const dir = process.argv[2];
const gen = process.argv.indexOf("--gen");
if (gen > 0 || !existsSync(dir)) await generateFolder(dir, Number(process.argv[gen + 1] ?? 10000));
const t0 = performance.now();
const larder = await Larder.open(loadConfig({}, { dataDir: dir }), {
  log: consoleLogger("silent"),
  watch: false,
});
console.log(
  `open ${(performance.now() - t0).toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);
const admin = larder.users.all().find((u) => u.admin)!;
const actor = { kind: "user" as const, user: admin };
// Parsed as the API parses a request's query string, so the same work is measured.
const list = (q: string) =>
  larder.recipes.lister.list(actor, parseRecipeListQuery(queryRecord(new URLSearchParams(q))));
const time = (label: string, qs: string[], rounds = 1) => {
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++)
    for (const q of qs) {
      const t = performance.now();
      const out = list(q);
      JSON.stringify(out);
      ms.push(performance.now() - t);
    }
  console.log(
    `${label}: n=${ms.length} p50 ${percentile(ms, 50).toFixed(2)} p95 ${percentile(ms, 95).toFixed(2)} p99 ${percentile(ms, 99).toFixed(2)} mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)} ms`,
  );
};
const t1 = performance.now();
list("perPage=30");
console.log(`first list ${(performance.now() - t1).toFixed(0)} ms`);
const t2 = performance.now();
list("perPage=30&search=chicken");
console.log(
  `first search ${(performance.now() - t2).toFixed(0)} ms, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
);
const s = (t: string) => `search=${encodeURIComponent(t)}&perPage=30`;
const loops = Number(process.env.LOOPS ?? 1);
for (let i = 0; i < loops; i++) time("new searches", NEW_SEARCHES.map(s));
time("new searches again (remembered)", NEW_SEARCHES.slice(-32).map(s));
time("repeated terms", SEARCH_TERMS.map(s), 3);
const f = FILTER_QUERIES.map((q) => new URLSearchParams({ ...q, perPage: "30" }).toString());
time("filter+order", f, 10 * loops);
time("plain list", ["perPage=30", "perPage=30&page=5&orderBy=name&orderDirection=asc"], 10);
await larder.close();
