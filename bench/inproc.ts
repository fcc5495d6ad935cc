/**
 * `npx tsx bench/inproc.ts DIR [--gen N [--groups G]]`: the list and search path in process, without
 * HTTP, over a data folder (generated with --gen, its recipes spread over G groups; measured as the
 * admin, in the first). For measuring a change to core/search or core/query quickly;
 * `npm run bench` measures the served figures. After the reads alone: the first list, filter and
 * search after a write, and a mixed loop of reads with writes between them (MIXED=N operations),
 * as the served mixed load (bench/mixed.ts) asks them but one at a time, so each sample is the
 * operation's own time. Writes edit descriptions and ratings of the admin's group.
 */
import { existsSync } from "node:fs";
import { Larder } from "../core/larder.js";
import { loadConfig } from "../core/config.js";
import { consoleLogger } from "../core/log/logger.js";
import { generateFolder } from "./generate.js";
import { FILTER_QUERIES, NEW_SEARCHES, SEARCH_TERMS } from "./measure.js";
import { percentile } from "./http.js";
import { parseRecipeListQuery, queryRecord } from "../web/api/list-query.js";
import { prng } from "../core/search/synthetic-recipes.js";

const dir = process.argv[2];
const gen = process.argv.indexOf("--gen");
const groups = process.argv.indexOf("--groups");
if (gen > 0 || !existsSync(dir))
  await generateFolder(
    dir,
    Number(process.argv[gen + 1] ?? 10000),
    1,
    groups > 0 ? Number(process.argv[groups + 1]) : 1,
  );
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
const report = (label: string, ms: number[]) =>
  console.log(
    `${label}: n=${ms.length} p50 ${percentile(ms, 50).toFixed(2)} p95 ${percentile(ms, 95).toFixed(2)} p99 ${percentile(ms, 99).toFixed(2)} max ${Math.max(...ms).toFixed(2)} mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)} ms`,
  );
const timed = (q: string): number => {
  const t = performance.now();
  JSON.stringify(list(q));
  return performance.now() - t;
};
const time = (label: string, qs: string[], rounds = 1) => {
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) for (const q of qs) ms.push(timed(q));
  report(label, ms);
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

// Writes, as the mixed load makes them: a description edit or a rating of a recipe of the group.
const home = larder.groups.byId(admin.groupId)!.slug;
const slugs = larder.recipes.store.list(home).map((e) => e.slug);
const rnd = prng(7);
const anySlug = () => slugs[Math.floor(rnd() * slugs.length)];
let edits = 0;
const edit = () =>
  larder.recipes.update(actor, anySlug(), { description: `Edited in process ${edits++}.` }, "patch");
const rate = () => larder.ratings.set(actor, admin.id, anySlug(), { rating: 1 + Math.floor(rnd() * 5) });
const rebuilds = () => (larder.recipes.lister as { rebuilds?: number }).rebuilds ?? "?";

/** The first read of each query after a write to the group: what a write used to cost the next read. */
const afterWrite = async (label: string, qs: string[], write: () => Promise<unknown>) => {
  const ms: number[] = [];
  for (const q of qs) {
    await write();
    ms.push(timed(q));
  }
  report(label, ms);
};
const lists = Array.from(
  { length: 20 },
  (_, i) => `perPage=30&page=${1 + i}&orderBy=${i % 2 ? "name" : "dateAdded"}&orderDirection=asc`,
);
const before = rebuilds();
await afterWrite("list after an edit", lists, edit);
await afterWrite("list after a rating", lists, rate);
await afterWrite("filter+order after an edit", [...f, ...f, ...f, ...f, ...f], edit);
await afterWrite("new search after an edit", NEW_SEARCHES.slice(0, 20).map(s), edit);
console.log(`patched listings read again from the store: ${before} → ${rebuilds()}`);

// The mixed loop: 80 % reads (30 list pages, 25 new searches, 25 recipes), 20 % writes.
const kinds = { list: [] as number[], search: [] as number[], recipe: [] as number[], write: [] as number[] };
const ops = Number(process.env.MIXED ?? 2000);
let searchAt = 0;
const cpu0 = process.cpuUsage();
const m0 = performance.now();
for (let i = 0; i < ops; i++) {
  const r = rnd();
  const t = performance.now();
  if (r < 0.3) {
    JSON.stringify(list(lists[Math.floor(rnd() * lists.length)]));
    kinds.list.push(performance.now() - t);
  } else if (r < 0.55) {
    JSON.stringify(list(s(NEW_SEARCHES[searchAt++ % NEW_SEARCHES.length])));
    kinds.search.push(performance.now() - t);
  } else if (r < 0.8) {
    JSON.stringify(larder.recipes.get(actor, anySlug()));
    kinds.recipe.push(performance.now() - t);
  } else {
    await (r < 0.9 ? edit() : rate());
    kinds.write.push(performance.now() - t);
  }
}
const cpu = process.cpuUsage(cpu0);
console.log(
  `mixed: ${ops} operations in ${((performance.now() - m0) / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1000 / ops).toFixed(2)} ms per operation`,
);
for (const [k, ms] of Object.entries(kinds)) report(`  mixed ${k}`, ms);
report("  mixed reads", [kinds.list, kinds.search, kinds.recipe].flat());
await larder.close();
