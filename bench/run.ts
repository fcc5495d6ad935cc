/**
 * `npm run bench [-- --sizes 1000,10000,50000] [--scale-at N] [--keep] [--profile] [--render]`: the benchmark of
 * issues #3 and #21. Generates data folders (from --scale-at, default 50,000, spread over ten groups),
 * runs `larder serve` on each as a separate process, measures start-up (cold, warm, against the raw
 * read), request latency and throughput, hand edit to visible, peak memory and, at the scale point, a
 * mixed load of reads and writes, then writes
 * BENCHMARKS.md and bench/results.json (`--render`: only rewrite BENCHMARKS.md from the last results).
 * Not a test: nothing here fails on a slow figure.
 */
import { readFile, rm } from "node:fs/promises";
import { markedSections, withSections } from "./sections.js";
import { cpus, loadavg, tmpdir, totalmem, type as osType, release } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { ensureBuilt } from "./build.js";
import { generateFolder, type GeneratedFolder } from "./generate.js";
import { median } from "./http.js";
import {
  FILTER_QUERIES,
  NEW_SEARCHES,
  SEARCH_TERMS,
  filterPath,
  handEdits,
  latencyPasses,
  searchPath,
  throughputPasses,
} from "./measure.js";
import { MIXED_KINDS, mixedLoad } from "./mixed.js";
import {
  evaluateTargets,
  mainSize,
  scaleSize,
  renderMarkdown,
  type Results,
  type SizeResult,
  type StartSummary,
} from "./report.js";
import { dropIndexCache, startLarder, type RunningLarder } from "./server.js";
import { profileStarts } from "./profile.js";
import { writeFormatted } from "./write-formatted.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const START_RUNS = 3;
/** Folders this large are spread over ten groups (a club on one server) and take the mixed load. */
const SCALE_AT = Number(arg("scale-at") ?? 50_000);
const SCALE_GROUPS = 10;
const MIXED = { clients: 32, durationS: 60 };
let profiles: Results["profiles"] = [];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const log = (s: string) => process.stdout.write(`[bench] ${s}\n`);

async function rawReadOnce(dataDir: string): Promise<{ processMs: number; readMs: number }> {
  const t0 = performance.now();
  const r = await execa("node", [join(ROOT, "bench", "raw-read.mjs"), dataDir]);
  const processMs = performance.now() - t0;
  const { readMs } = JSON.parse(r.stdout) as { readMs: number };
  return { processMs, readMs };
}

function summarise(runs: StartSummary["runs"]): StartSummary {
  return {
    firstAnswerMs: median(runs.map((r) => r.firstAnswerMs)),
    firstListMs: median(runs.map((r) => r.firstListMs)),
    firstSearchMs: median(runs.map((r) => r.firstSearchMs)),
    firstPageMs: median(runs.map((r) => r.firstPageMs)),
    runs,
  };
}

async function benchSize(count: number, base: string, profile: boolean): Promise<SizeResult> {
  const dataDir = join(base, String(count));
  log(`${count} recipes: generating ${dataDir}`);
  const g0 = performance.now();
  const groups = count >= SCALE_AT ? SCALE_GROUPS : 1;
  const gen: GeneratedFolder = await generateFolder(dataDir, count, 1, groups);
  const generateMs = performance.now() - g0;
  const start = (): Promise<RunningLarder> =>
    startLarder({ root: ROOT, dataDir, apiToken: gen.apiToken, searchTerm: "chicken" });

  const raws = [];
  for (let i = 0; i < START_RUNS; i++) raws.push(await rawReadOnce(dataDir));
  log(`${count}: raw read ${raws.map((r) => r.processMs.toFixed(0)).join(", ")} ms`);

  const coldRuns: StartSummary["runs"] = [];
  let peakRssMb = 0;
  let peakRssWarmMb = 0;
  let result: Omit<
    SizeResult,
    | "recipes"
    | "bytes"
    | "generateMs"
    | "rawRead"
    | "cold"
    | "warm"
    | "coldToRawRatio"
    | "peakRssMb"
    | "peakRssWarmMb"
    | "groups"
  > | null = null;
  for (let i = 0; i < START_RUNS; i++) {
    await dropIndexCache(dataDir);
    const server = await start();
    coldRuns.push(server.times);
    log(
      `${count}: cold start ${server.times.firstAnswerMs.toFixed(0)} / ${server.times.firstListMs.toFixed(0)} / ${server.times.firstSearchMs.toFixed(0)} / ${server.times.firstPageMs.toFixed(0)} ms  ${server.times.indexLog ?? ""}`,
    );
    try {
      // The last cold-started server also takes the load: its peak RSS covers start, load and edits.
      if (i === START_RUNS - 1) result = await underLoad(server, gen, count >= SCALE_AT);
      peakRssMb = Math.max(peakRssMb, await server.peakRssMb());
    } finally {
      await server.stop();
    }
  }
  const warmRuns: StartSummary["runs"] = [];
  for (let i = 0; i < START_RUNS; i++) {
    const server = await start();
    warmRuns.push(server.times);
    log(
      `${count}: warm start ${server.times.firstAnswerMs.toFixed(0)} / ${server.times.firstListMs.toFixed(0)} / ${server.times.firstSearchMs.toFixed(0)} / ${server.times.firstPageMs.toFixed(0)} ms  ${server.times.indexLog ?? ""}`,
    );
    peakRssWarmMb = Math.max(peakRssWarmMb, await server.peakRssMb());
    await server.stop();
  }
  if (!result) throw new Error("unreachable: no load results");
  if (profile) {
    profiles = await profileStarts(ROOT, dataDir, gen.apiToken, count);
    for (const p of profiles) log(`${count}: profiled ${p.kind} start → ${p.summaryFile}`);
  }
  const rawRead = {
    processMs: median(raws.map((r) => r.processMs)),
    readMs: median(raws.map((r) => r.readMs)),
    runs: raws,
  };
  const cold = summarise(coldRuns);
  return {
    recipes: count,
    groups,
    bytes: gen.bytes,
    generateMs,
    rawRead,
    cold,
    warm: summarise(warmRuns),
    coldToRawRatio: cold.firstListMs / rawRead.processMs,
    ...result,
    peakRssMb: Math.max(peakRssMb, peakRssWarmMb),
    peakRssWarmMb,
  };
}

async function underLoad(server: RunningLarder, gen: GeneratedFolder, scale: boolean) {
  const { client } = server;
  // After a start the server writes its cache and loads the UI's build in the background: a load pass
  // begins once it has settled, so it measures requests, not the tail of the start.
  const settleMs = await server.settle();
  log(`${gen.count}: server settled ${settleMs.toFixed(0)} ms after its first search`);
  // The brief's login: a session token, as a browser or the Mealie app would use.
  const login = await fetch(`http://127.0.0.1:${server.port}/api/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: "admin", password: "MyPassword" }),
  });
  if (!login.ok) throw new Error(`bench: login failed: ${login.status} ${await login.text()}`);
  const token = ((await login.json()) as { access_token: string }).access_token;
  const searchPaths = SEARCH_TERMS.map(searchPath);
  const filterPaths = FILTER_QUERIES.map(filterPath);
  const total = await client.json<{ total: number }>("/api/recipes?perPage=1");
  if (total.total !== gen.slugs.length)
    throw new Error(`bench: the server lists ${total.total} recipes in Home, expected ${gen.slugs.length}`);
  const spread = (xs: number[] | undefined, f: (x: number) => string) =>
    xs ? ` [${f(Math.min(...xs))}–${f(Math.max(...xs))}]` : "";
  const searchNew = await latencyPasses(client, NEW_SEARCHES.map(searchPath), 1, 90_000, 0);
  log(
    `${gen.count}: new searches p50 ${searchNew.p50.toFixed(2)} p95 ${searchNew.p95.toFixed(2)}${spread(
      searchNew.passes?.map((p) => p.p95),
      (x) => x.toFixed(1),
    )} p99 ${searchNew.p99.toFixed(2)} ms`,
  );
  const search = await latencyPasses(client, searchPaths, 6, 60_000);
  log(
    `${gen.count}: repeated searches p50 ${search.p50.toFixed(2)} p95 ${search.p95.toFixed(2)} p99 ${search.p99.toFixed(2)} ms`,
  );
  const filter = await latencyPasses(client, filterPaths, 14, 60_000);
  log(
    `${gen.count}: filter p50 ${filter.p50.toFixed(2)} p95 ${filter.p95.toFixed(2)} p99 ${filter.p99.toFixed(2)} ms`,
  );
  const searchThroughput = await throughputPasses(server.port, token, searchPaths, 10, 4);
  const searchNewThroughput = await throughputPasses(
    server.port,
    token,
    NEW_SEARCHES.map(searchPath),
    10,
    4,
    true,
  );
  const filterThroughput = await throughputPasses(server.port, token, filterPaths, 10, 4);
  const rps = (x: number) => x.toFixed(0);
  log(
    `${gen.count}: throughput search ${rps(searchThroughput.reqPerSec)}${spread(searchThroughput.passes, rps)} req/s (new searches ${rps(searchNewThroughput.reqPerSec)}${spread(searchNewThroughput.passes, rps)}), filter ${rps(filterThroughput.reqPerSec)}${spread(filterThroughput.passes, rps)} req/s`,
  );
  const handEdit = await handEdits(client, join(gen.dir, "groups", "home", "recipes"), gen.slugs, 40, 60_000);
  log(`${gen.count}: hand edit p50 ${handEdit.p50.toFixed(0)} p95 ${handEdit.p95.toFixed(0)} ms`);
  let mixed;
  let mixedRss;
  if (scale) {
    log(
      `${gen.count}: mixed load, ${MIXED.clients} clients over ${gen.groups.length} groups, ${MIXED.durationS} s`,
    );
    // The server's RSS through the load, once a second: where it ends beside where it began shows a
    // server that keeps what each request read (decision 0185).
    const rss: number[] = [];
    const sampler = setInterval(() => void server.rssMb().then((mb) => rss.push(mb)), 1000);
    try {
      mixed = await mixedLoad(server.port, gen.groups, MIXED);
    } finally {
      clearInterval(sampler);
    }
    mixedRss = { firstMb: rss[0] ?? 0, lastMb: rss.at(-1) ?? 0, maxMb: Math.max(0, ...rss) };
    log(
      `${gen.count}: mixed load ${mixed.requests} requests (${mixed.reqPerSec.toFixed(0)}/s), ${mixed.errors} errors, p50 ${mixed.p50.toFixed(1)} p99 ${mixed.p99.toFixed(1)} ms; RSS ${mixedRss.firstMb.toFixed(0)} → ${mixedRss.lastMb.toFixed(0)} MB`,
    );
  }
  return {
    settleMs,
    search,
    searchNew,
    filter,
    searchThroughput,
    searchNewThroughput,
    filterThroughput,
    handEdit,
    mixed,
    mixedRss,
  };
}

async function emptyStart(base: string): Promise<{ startMs: number[]; peakRssMb: number }> {
  const gen = await generateFolder(join(base, "0"), 0);
  const startMs: number[] = [];
  let peakRssMb = 0;
  for (let i = 0; i < START_RUNS; i++) {
    const s = await startLarder({
      root: ROOT,
      dataDir: gen.dir,
      apiToken: gen.apiToken,
      searchTerm: "chicken",
    });
    startMs.push(s.times.firstListMs);
    peakRssMb = Math.max(peakRssMb, await s.peakRssMb());
    await s.stop();
  }
  return { startMs, peakRssMb };
}

async function git(args: string[]): Promise<string> {
  return (await execa("git", args, { cwd: ROOT, reject: false })).stdout.trim();
}

/** Measure every size, then report. */
async function measure(): Promise<Omit<Results, "targets">> {
  const sizes = (arg("sizes") ?? "1000,10000,50000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const t0 = performance.now();
  const loadavgStart = loadavg();
  // Before the run: the run itself rewrites bench/profiles/, which must not count as a change.
  const dirty = (await git(["status", "--porcelain"])) !== "";
  await ensureBuilt(ROOT, log);
  const base = join(tmpdir(), "larder-bench");
  const empty = await emptyStart(base);
  const emptyStartMs = empty.startMs;
  log(
    `empty folder start: ${emptyStartMs.map((x) => x.toFixed(0)).join(", ")} ms, peak RSS ${empty.peakRssMb.toFixed(0)} MB`,
  );
  const results: SizeResult[] = [];
  for (const n of sizes)
    results.push(await benchSize(n, base, process.argv.includes("--profile") && n === Math.max(...sizes)));
  const partial: Omit<Results, "targets"> = {
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    commit: await git(["rev-parse", "HEAD"]),
    dirty,
    date: new Date().toISOString(),
    durationS: (performance.now() - t0) / 1000,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      memoryGb: totalmem() / 2 ** 30,
      node: process.versions.node,
      os: `${osType()} ${release()}`,
      loadavgStart,
      loadavgEnd: loadavg(),
    },
    emptyStartMs,
    emptyPeakRssMb: empty.peakRssMb,
    sizes: results,
    profiles,
  };
  if (!process.argv.includes("--keep")) await rm(base, { recursive: true, force: true });
  return partial;
}

/**
 * `--render`: the figures of the last run (bench/results.json) written into BENCHMARKS.md again, with
 * the targets and their explanations as this script states them now; nothing is measured.
 */
async function lastRun(): Promise<Omit<Results, "targets">> {
  const { targets: _, ...partial } = JSON.parse(
    await readFile(join(ROOT, "bench", "results.json"), "utf8"),
  ) as Results;
  profiles = partial.profiles;
  return partial;
}

async function main(): Promise<void> {
  const partial = process.argv.includes("--render") ? await lastRun() : await measure();
  const empty = { peakRssMb: partial.emptyPeakRssMb };
  const { emptyStartMs } = partial;
  const big = mainSize(partial);
  const scale = scaleSize(partial);
  const fixed = median(emptyStartMs);
  const small = partial.sizes.reduce((a, b) => (b.recipes < a.recipes ? b : a));
  const n = big.recipes.toLocaleString("en-US");
  const load = `load average ${partial.machine.loadavgStart.map((x) => x.toFixed(1)).join(" / ")} at the start of the run on ${partial.machine.cpus} cores`;
  const see = "See docs/decisions/0113-speed-round-three.md.";
  // Causes, from this run's own figures and the profiles of decisions 0007 and 0113.
  const explain = (what: string): string | undefined => {
    if (/mixed load/.test(what) && scale?.mixed) {
      const k = scale.mixed.byKind;
      const slowest = MIXED_KINDS.reduce((a, b) => (k[b].p99 > k[a].p99 ? b : a));
      return `p99 by kind: list ${k.list.p99.toFixed(0)} ms, search ${k.search.p99.toFixed(0)} ms, recipe ${k.recipe.p99.toFixed(0)} ms, edit ${k.edit.p99.toFixed(0)} ms, rating ${k.rating.p99.toFixed(0)} ms, check-off ${k.check.p99.toFixed(0)} ms (slowest: ${slowest}). The slowest requests come in bursts, each on a full collection of the old space (decision 0183: a timeline of every request next to the collector's trace): marking the heap of 50,000 recipes (about 290 MB, 4.4 million objects) takes about 400 ms, during which the main thread serves about a fifth as fast and the lists and searches queued for their slot (two start per turn of the event loop, decision 0122) wait it out. The server allows this heap 40 % growth between collections (decision 0184) and allocates about 220 KB per request (decision 0183), so one comes every few seconds; a more compact index would make each one shorter. Writes wait on the disk for the fsyncs of the new file and its folder (decision 0179); on a virtual disk an fsync waits for the host to persist what was written just before, so writes soon after a large write (the start's index cache, the generated folder) are much slower than once the disk has settled (decision 0173). Time a write no longer waits goes to the queued lists: 32 clients ask again as soon as they are answered. The 32 clients and the server share the cores (${load}). ${see}`;
    }
    if (/RSS/.test(what)) {
      const sz = /over \d+ groups/.test(what) && scale ? scale : big;
      return `the server with an empty data folder peaks at ${Math.round(empty.peakRssMb)} MB; warm starts peak at ${Math.round(sz.peakRssWarmMb)} MB. The peak is a cold start followed by the load passes. A warm start keeps ingredients, instructions and notes in the cache file until read (decision 0165), a cold scan keeps them as the cache's bytes in memory until its first cache write, then reads them from that file too (decision 0181), and the search index reads ingredients without keeping them (decision 0177); what grows under load is V8's heap between full collections (request garbage; decision 0177; once the folder is open the server lets it grow by at most 20 % between them, decision 0178) and, after a cold start, memory the scan's parse left committed. ${see}`;
    }
    if (/growth/.test(what))
      return `a new search's p95 is ${big.searchNew.p95.toFixed(1)} ms at ${n} recipes against ${small.searchNew.p95.toFixed(1)} ms. Scoring is term at a time over typed postings and the page is a bounded heap (decision 0110), so what grows is the postings walked for a common word; p95 is also where the shared machine shows (${load}). ${see}`;
    if (/start/.test(what)) {
      const sz = /over \d+ groups/.test(what) && scale ? scale : big;
      const index = (/warm/.test(what) ? sz.warm : sz.cold).runs.at(-1)?.indexLog;
      return `the same server answers an empty data folder in ${Math.round(fixed)} ms (node start and loading the bundle); the recipe index's own share: ${index ?? "not logged"}; the first list then builds the list entries and the first search the search index. Parsing (cold, decision 0167; each doc packed by the thread that parsed it, decision 0180) and reading the cache rows' heads (warm, decision 0165) are the rest, with the garbage collector copying what they keep; ${load}. ${see}`;
    }
    if (/search p/.test(what)) {
      const sz = /over \d+ groups/.test(what) && scale ? scale : big;
      return `p50 ${sz.searchNew.p50.toFixed(1)} ms, spread of p95 over three passes ${sz.searchNew.passes ? sz.searchNew.passes.map((p) => p.p95.toFixed(1)).join(", ") : "–"} ms. In process a new search at 10,000 recipes takes about 0.6 ms (bench/inproc.ts); the rest is the HTTP request around it and the shared machine (${load}). ${see}`;
    }
    if (/throughput/.test(what)) {
      return `the load generator (autocannon, 10 connections) runs on the same cores as the server (${load}); one at a time a new search takes ${big.searchNew.p50.toFixed(1)} ms and a filtered, ordered list ${big.filter.p50.toFixed(1)} ms (p50). ${see}`;
    }
    return undefined;
  };
  const full: Results = { ...partial, targets: evaluateTargets(partial, explain) };
  await writeFormatted(join(ROOT, "bench", "results.json"), `${JSON.stringify(full, null, 2)}\n`);
  // The sections other scripts own (load, parser and import evaluations, web UI) are kept as they were.
  const previous = await readFile(join(ROOT, "BENCHMARKS.md"), "utf8").catch(() => "");
  await writeFormatted(
    join(ROOT, "BENCHMARKS.md"),
    withSections(renderMarkdown(full), markedSections(previous)),
  );
  log("wrote BENCHMARKS.md and bench/results.json");
  for (const t of full.targets)
    log(`${t.met ? "met " : "GAP "} ${t.what}: ${t.measured} (target ${t.target})`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
