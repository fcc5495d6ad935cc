/**
 * The benchmark's results: their shape (bench/results.json), the targets of issue #3 checked against
 * them, and BENCHMARKS.md rendered from them. Every figure in BENCHMARKS.md comes from here.
 */
import type { StartTimes } from "./server.js";
import type { HandEdit, Latency, Throughput } from "./measure.js";

export interface StartSummary {
  /** Medians over the runs. */
  firstAnswerMs: number;
  firstListMs: number;
  firstSearchMs: number;
  runs: StartTimes[];
}

export interface SizeResult {
  recipes: number;
  bytes: number;
  generateMs: number;
  rawRead: { processMs: number; readMs: number; runs: { processMs: number; readMs: number }[] };
  cold: StartSummary;
  warm: StartSummary;
  /** Cold start (first recipe list) over the raw-read process time. */
  coldToRawRatio: number;
  /** Repeated searches (the server remembers recent ones). */
  search: Latency;
  /** Searches asked once each. */
  searchNew: Latency;
  filter: Latency;
  searchThroughput: Throughput;
  searchNewThroughput: Throughput;
  filterThroughput: Throughput;
  handEdit: HandEdit;
  /** The largest of all runs (the cold start that also takes the load, the warm starts). */
  peakRssMb: number;
  /** Warm starts only. */
  peakRssWarmMb: number;
}

export interface Results {
  command: string;
  commit: string;
  dirty: boolean;
  date: string;
  durationS: number;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    os: string;
    loadavgStart: number[];
    loadavgEnd: number[];
  };
  emptyStartMs: number[];
  emptyPeakRssMb: number;
  sizes: SizeResult[];
  /** With --profile: CPU profiles of a cold and a warm start of the largest folder. */
  profiles: { kind: string; summaryFile: string }[];
  targets: TargetRow[];
}

export interface TargetRow {
  what: string;
  target: string;
  measured: string;
  met: boolean;
  /** Why not, when not met (from the measurements and the profile; see docs/decisions/0007). */
  gap?: string;
}

const ms = (v: number) => (v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`);
const n0 = (v: number) => Math.round(v).toLocaleString("en-US");

export function evaluateTargets(
  r: Omit<Results, "targets">,
  explain: (what: string) => string | undefined,
): TargetRow[] {
  const big = r.sizes.reduce((a, b) => (b.recipes > a.recipes ? b : a));
  const small = r.sizes.reduce((a, b) => (b.recipes < a.recipes ? b : a));
  const rows: Omit<TargetRow, "gap">[] = [
    {
      what: `cold start, ${n0(big.recipes)} recipes`,
      target: "≤ 2 s",
      measured: ms(big.cold.firstListMs),
      met: big.cold.firstListMs <= 2000,
    },
    {
      what: "cold start ÷ raw read",
      target: "≤ 4×",
      measured: `${big.coldToRawRatio.toFixed(2)}×`,
      met: big.coldToRawRatio <= 4,
    },
    {
      what: "warm start (index cache)",
      target: "≤ 0.5 s",
      measured: ms(big.warm.firstListMs),
      met: big.warm.firstListMs <= 500,
    },
    {
      what: "search p50 (new searches)",
      target: "≤ 5 ms",
      measured: ms(big.searchNew.p50),
      met: big.searchNew.p50 <= 5,
    },
    {
      what: "search p95 (new searches)",
      target: "≤ 20 ms",
      measured: ms(big.searchNew.p95),
      met: big.searchNew.p95 <= 20,
    },
    {
      what: "throughput (repeated searches, concurrent clients)",
      target: "≥ 1,000 req/s",
      measured: `${n0(big.searchThroughput.reqPerSec)} req/s`,
      met: big.searchThroughput.reqPerSec >= 1000,
    },
    {
      what: "throughput (new searches, concurrent clients)",
      target: "≥ 1,000 req/s",
      measured: `${n0(big.searchNewThroughput.reqPerSec)} req/s`,
      met: big.searchNewThroughput.reqPerSec >= 1000,
    },
    {
      what: "hand edit visible p95",
      target: "≤ 300 ms",
      measured: ms(big.handEdit.p95),
      met: big.handEdit.p95 <= 300,
    },
    {
      what: "server peak RSS",
      target: "≤ 300 MB",
      measured: `${Math.round(big.peakRssMb)} MB`,
      met: big.peakRssMb <= 300,
    },
  ];
  if (small !== big) {
    const growth = big.searchNew.p95 / small.searchNew.p95;
    rows.push({
      what: `search p95 (new searches) growth ${n0(small.recipes)} → ${n0(big.recipes)}`,
      target: "≤ 3×",
      measured: `${growth.toFixed(2)}×`,
      met: growth <= 3,
    });
  }
  return rows.map((row) =>
    row.met ? row : { ...row, gap: explain(row.what) ?? "not met; see docs/decisions/0007-performance.md" },
  );
}

export function renderMarkdown(r: Results): string {
  const L: string[] = [];
  const m = r.machine;
  L.push("# Benchmarks", "");
  L.push(
    "Written by `npm run bench` (bench/run.ts); do not edit by hand. Raw figures: `bench/results.json`.",
    "",
  );
  L.push(`- command: \`${r.command}\``);
  L.push(`- commit: \`${r.commit}\`${r.dirty ? " (working tree has uncommitted changes)" : ""}`);
  L.push(`- date: ${r.date} (run took ${Math.round(r.durationS)} s)`);
  L.push(
    `- machine: ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb.toFixed(1)} GB memory, Node ${m.node}, ${m.os}`,
  );
  L.push(
    `- load average (1/5/15 min) at start: ${m.loadavgStart.map((x) => x.toFixed(2)).join(" / ")}; at end: ${m.loadavgEnd.map((x) => x.toFixed(2)).join(" / ")}`,
  );
  L.push("");
  L.push("## Targets (largest folder)", "");
  L.push("| what | target | measured | met |", "|---|---|---|---|");
  for (const t of r.targets)
    L.push(`| ${t.what} | ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`);
  const gaps = r.targets.filter((t) => !t.met);
  if (gaps.length) {
    L.push("", "### Gaps and their causes", "");
    for (const t of gaps) L.push(`- **${t.what}** (${t.measured}, target ${t.target}): ${t.gap}`);
  }
  L.push("", "## Figures", "");
  const cols = r.sizes.map((s) => `${n0(s.recipes)} recipes`);
  L.push(`| | ${cols.join(" | ")} |`, `|---|${cols.map(() => "---|").join("")}`);
  const row = (label: string, f: (s: SizeResult) => string) =>
    L.push(`| ${label} | ${r.sizes.map(f).join(" | ")} |`);
  row("recipe files (bytes)", (s) => `${n0(s.recipes)} (${(s.bytes / 1e6).toFixed(1)} MB)`);
  row("raw read: process start → all files read (median)", (s) => ms(s.rawRead.processMs));
  row("raw read: reading alone, in process", (s) => ms(s.rawRead.readMs));
  row("cold start → first answer (`/api/app/about`)", (s) => ms(s.cold.firstAnswerMs));
  row("cold start → first recipe list", (s) => ms(s.cold.firstListMs));
  row("cold start → first search", (s) => ms(s.cold.firstSearchMs));
  row("cold start ÷ raw read", (s) => `${s.coldToRawRatio.toFixed(2)}×`);
  row("warm start → first answer", (s) => ms(s.warm.firstAnswerMs));
  row("warm start → first recipe list", (s) => ms(s.warm.firstListMs));
  row("warm start → first search", (s) => ms(s.warm.firstSearchMs));
  row(
    "search latency, new searches, p50 / p95 / p99",
    (s) => `${ms(s.searchNew.p50)} / ${ms(s.searchNew.p95)} / ${ms(s.searchNew.p99)}`,
  );
  row(
    "search latency, repeated searches, p50 / p95 / p99",
    (s) => `${ms(s.search.p50)} / ${ms(s.search.p95)} / ${ms(s.search.p99)}`,
  );
  row(
    "queryFilter + orderBy latency p50 / p95 / p99",
    (s) => `${ms(s.filter.p50)} / ${ms(s.filter.p95)} / ${ms(s.filter.p99)}`,
  );
  row(
    "search throughput, new searches",
    (s) =>
      `${n0(s.searchNewThroughput.reqPerSec)} req/s (p50 ${ms(s.searchNewThroughput.p50)}, p99 ${ms(s.searchNewThroughput.p99)})`,
  );
  row(
    "search throughput, repeated searches",
    (s) =>
      `${n0(s.searchThroughput.reqPerSec)} req/s (p50 ${ms(s.searchThroughput.p50)}, p99 ${ms(s.searchThroughput.p99)})`,
  );
  row(
    "queryFilter + orderBy throughput",
    (s) =>
      `${n0(s.filterThroughput.reqPerSec)} req/s (p50 ${ms(s.filterThroughput.p50)}, p99 ${ms(s.filterThroughput.p99)})`,
  );
  row(
    "hand edit → visible p50 / p95 (max)",
    (s) => `${ms(s.handEdit.p50)} / ${ms(s.handEdit.p95)} (${ms(s.handEdit.max)})`,
  );
  row(
    "server peak RSS (VmHWM), all runs / warm starts only",
    (s) => `${Math.round(s.peakRssMb)} MB / ${Math.round(s.peakRssWarmMb)} MB`,
  );
  L.push("");
  L.push(
    `Server start with an empty data folder (no recipes), for reference: ${r.emptyStartMs.map(ms).join(", ")}; its peak RSS ${Math.round(r.emptyPeakRssMb)} MB.`,
    "",
  );
  L.push("## Start-up runs", "");
  for (const s of r.sizes) {
    for (const [kind, sum] of [
      ["cold", s.cold],
      ["warm", s.warm],
    ] as const) {
      const runs = sum.runs
        .map((x) => `${ms(x.firstAnswerMs)} / ${ms(x.firstListMs)} / ${ms(x.firstSearchMs)}`)
        .join("; ");
      L.push(`- ${n0(s.recipes)}, ${kind} (answer / list / search): ${runs}`);
      const logs = [...new Set(sum.runs.map((x) => x.indexLog).filter(Boolean))];
      if (logs.length) L.push(`  - server log: \`${logs[logs.length - 1]}\``);
    }
  }
  if (r.profiles.length) {
    L.push("", "## Profiles", "");
    for (const p of r.profiles) L.push(`- ${p.kind} start under \`node --cpu-prof\`: \`${p.summaryFile}\``);
  }
  L.push("", "## How it is measured", "");
  L.push(
    "- Each folder is made like `larder init` (group Home, household Family, the seeded en-US foods and units, the first admin) and filled with generated recipes written by the real serializer: 8–15 ingredients from the seeded vocabulary, 4–10 steps, tags, categories, tools, some notes and nutrition. Seeded, so every run reads the same bytes.",
    "- The server is `node dist/cli/index.js serve --data DIR --port N`, a separate process started by the benchmark with Larder's defaults. Start-up is timed from just before the spawn to the first 200 of `GET /api/app/about`, of an authenticated `GET /api/recipes?perPage=1`, and of a search. Cold: `.larder/cache/recipe-index.json` removed first. Warm: the cache the previous run wrote at shutdown. Three runs each; the table shows medians.",
    "- Raw read: a separate `node bench/raw-read.mjs DIR` that lists and reads every recipe file with no parsing, timed the same way (spawn to exit); the ratio divides the cold start (first list) by it. Both include Node's own start-up; the page cache is warm for both.",
    "- Latency: one client, sequential requests with keep-alive. New searches: 240 distinct one- and two-word queries, each asked once. Repeated searches: 20 terms (typos, prefixes, a phrase, accents) asked 15 times after a warm-up pass; the server remembers a group's 32 latest searches until a recipe of the group changes, so these mostly measure that memory. Filters combine `queryFilter` with `orderBy`. Throughput: autocannon on loopback, 10 concurrent connections, in the benchmark process on the same machine; for new searches the clients share one cycle through the 240 queries, longer than the server remembers.",
    "- Hand edit: the recipe file's `name:` line is rewritten in place (as an editor saves), then `GET /api/recipes/{slug}` is polled every few ms until it shows the new name.",
    "- Peak RSS: `VmHWM` from `/proc/<pid>/status` of each server process (cold start, then load and edits; warm starts), the largest reported.",
  );
  L.push("");
  return L.join("\n");
}
