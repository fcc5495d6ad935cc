/**
 * `npm run bench:load`: 200 concurrent clients for 60 s on loopback against `larder serve` (the built
 * dist/ and build/, as users run it) over a generated folder of 1,000 recipes — half of them search
 * (`GET /api/recipes?search=…`, a new term each time), half open recipe pages (`GET /g/<group>/r/<slug>`,
 * signed in by cookie). Writes its figures into the "Load" section of BENCHMARKS.md and
 * bench/load-results.json. Targets (issue 11): 0 errors, p99 ≤ 2 s for each kind, recipe pages ≥ 300/s.
 *
 * Options: --clients N (200), --duration S (60), --recipes N (1000), --no-write (print only),
 * --cpu-prof DIR (run the server under `node --cpu-prof`, the profile written to DIR when it stops;
 * summarise it with `npx tsx bench/profile-summary.ts DIR/<file>.cpuprofile`).
 * Not a test: nothing here fails on a slow figure.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { execa } from "execa";
import { ensureBuilt } from "./build.js";
import { generateFolder } from "./generate.js";
import { percentile } from "./http.js";
import { startLarder } from "./server.js";
import { writeFormatted } from "./write-formatted.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- bench:load:start -->";
const END = "<!-- bench:load:end -->";

interface KindResult {
  clients: number;
  requests: number;
  reqPerSec: number;
  errors: number;
  non2xx: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /**
   * The first request for each distinct path, which no stored answer can serve (for pages: React renders
   * them). Their latencies, in ms: the slowest of the run come from them, whatever share they are of it.
   */
  firstViews?: { count: number; p50: number; p90: number; max: number };
}

export interface LoadResults {
  date: string;
  commit: string;
  machine: string;
  loadAverage: number[];
  /** CPU seconds the server process used during the run, and that over the run's wall time (cores). */
  serverCpuS: number;
  serverCpuShare: number;
  /** Recipe pages and searches answered per second of the server's own CPU time: comparable across loads. */
  requestsPerServerCpuS: number;
  recipes: number;
  durationS: number;
  searches: KindResult;
  pages: KindResult;
  targets: Array<{ what: string; target: string; measured: string; met: boolean }>;
}

/** User + system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const WORDS =
  "chicken soup curry garlic lemon cake bread salad tomato rice pasta beef spicy sweet roast pie tart stew onion butter cheese basil ginger honey apple chocolate".split(
    " ",
  );

/** Search terms in a fixed pseudo-random order: one word, two words, a prefix, a typo. */
function searchPaths(n: number): string[] {
  const out: string[] = [];
  let x = 7;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < n; i++) {
    const a = WORDS[next() % WORDS.length];
    const b = WORDS[next() % WORDS.length];
    const kind = i % 4;
    const term =
      kind === 0 ? a : kind === 1 ? `${a} ${b}` : kind === 2 ? a.slice(0, 4) : a.replace(/[aeiou]/, "x");
    out.push(
      `/api/recipes?search=${encodeURIComponent(term)}&page=1&perPage=20&orderBy=name&orderDirection=asc`,
    );
  }
  return out;
}

async function run(
  port: number,
  paths: string[],
  clients: number,
  durationS: number,
  headers: Record<string, string>,
): Promise<KindResult> {
  let next = 0;
  // Which request each connection has in flight (its number in the shared cycle): autocannon reports a
  // response, then, in the same turn, asks that connection's setupRequest for its next request.
  const inFlight = new Map<object, number>();
  let answered: object | null = null;
  const firstLatencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: clients,
    duration: durationS,
    timeout: 30,
    headers,
    // One shared cycle: no two requests in a row ask the same thing.
    requests: [
      {
        method: "GET",
        setupRequest: (req) => {
          const n = next++;
          if (answered) inFlight.set(answered, n);
          answered = null;
          return { ...req, path: paths[n % paths.length] };
        },
      },
    ],
  });
  instance.on("response", (client, _status, _bytes, ms) => {
    // A connection's very first request was built before it had answered anything: it is one of the
    // first `clients` requests of the cycle, a first view whenever the cycle is longer than that.
    const n = inFlight.get(client) ?? 0;
    if (n < paths.length) firstLatencies.push(ms);
    answered = client;
  });
  const r = await instance;
  const lat = r.latency;
  const at = (p: number) => (firstLatencies.length ? Math.round(percentile(firstLatencies, p)) : 0);
  return {
    clients,
    requests: r.requests.total,
    reqPerSec: r.requests.average,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    p50: lat.p50,
    p90: lat.p90,
    p99: lat.p99,
    max: lat.max,
    firstViews: { count: firstLatencies.length, p50: at(50), p90: at(90), max: at(100) },
  };
}

function render(r: LoadResults): string {
  const row = (name: string, k: KindResult) =>
    `| ${name} | ${k.clients} | ${k.requests} | ${k.reqPerSec.toFixed(0)} | ${k.p50} | ${k.p90} | ${k.p99} | ${k.max} | ${k.errors} | ${k.non2xx} |`;
  return [
    START,
    "## Load: 200 concurrent clients (searches and recipe pages)",
    "",
    `Written by \`npm run bench:load\` (bench/load.ts); do not edit by hand. Raw figures: \`bench/load-results.json\`.`,
    "",
    `- commit: \`${r.commit}\`; date: ${r.date}`,
    `- machine: ${r.machine}; load average at start: ${r.loadAverage.map((l) => l.toFixed(2)).join(" / ")}`,
    `- ${r.recipes} generated recipes, ${r.durationS} s, loopback; the load generator runs on the same machine`,
    `- the server process used ${r.serverCpuS.toFixed(1)} CPU s (${r.serverCpuShare.toFixed(2)} of a core on average; other processes share the machine): ${r.requestsPerServerCpuS.toFixed(0)} answers per CPU second`,
    "",
    "| | target | measured | met |",
    "|---|---|---|---|",
    ...r.targets.map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`),
    "",
    "| kind | clients | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | non-2xx |",
    "|---|---|---|---|---|---|---|---|---|---|",
    row("search `GET /api/recipes?search=…`", r.searches),
    row("recipe page `GET /g/<group>/r/<slug>`", r.pages),
    ...(r.pages.firstViews
      ? [
          "",
          `First views (the first request for each of the ${r.recipes} pages, which React renders; every later one is a stored page): ${r.pages.firstViews.count}, p50 ${r.pages.firstViews.p50} ms, p90 ${r.pages.firstViews.p90} ms, max ${r.pages.firstViews.max} ms. They are ${((100 * r.pages.firstViews.count) / Math.max(1, r.pages.requests)).toFixed(2)} % of the page answers, so the page p99 falls among them when the run answers fewer than ${r.pages.firstViews.count * 100} pages and among stored pages otherwise.`,
        ]
      : []),
    END,
  ].join("\n");
}

/** Replace the load section of BENCHMARKS.md (or append it); `npm run bench` keeps it (bench/run.ts). */
export function withLoadSection(markdown: string, section: string): string {
  const a = markdown.indexOf(START);
  const b = markdown.indexOf(END);
  if (a >= 0 && b > a) return markdown.slice(0, a) + section + markdown.slice(b + END.length);
  return `${markdown.trimEnd()}\n\n${section}\n`;
}

/** The load section of a BENCHMARKS.md, or "" (for bench/run.ts, which rewrites the rest). */
export function loadSectionOf(markdown: string): string {
  const a = markdown.indexOf(START);
  const b = markdown.indexOf(END);
  return a >= 0 && b > a ? markdown.slice(a, b + END.length) : "";
}

async function main(): Promise<void> {
  const clients = arg("clients", 200);
  const durationS = arg("duration", 60);
  const count = arg("recipes", 1000);
  const cpuProfIndex = process.argv.indexOf("--cpu-prof");
  const cpuProfDir = cpuProfIndex >= 0 ? process.argv[cpuProfIndex + 1] : null;
  // A profiled run is slower than a real one: its figures are never written as the result.
  const write = !process.argv.includes("--no-write") && !cpuProfDir;
  const log = (s: string) => console.error(`bench:load: ${s}`);
  await ensureBuilt(ROOT, log);
  if (!existsSync(join(ROOT, "build", "server", "index.js"))) {
    log("the web UI is not built: npm run build:web");
    await execa("npm", ["run", "build:web"], { cwd: ROOT, stdio: "inherit" });
  }
  const tmp = await mkdtemp(join(tmpdir(), "larder-load-"));
  try {
    const folder = await generateFolder(join(tmp, "data"), count);
    const server = await startLarder({
      root: ROOT,
      dataDir: folder.dir,
      apiToken: folder.apiToken,
      searchTerm: "soup",
      nodeArgs: cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [],
    });
    try {
      const pages = folder.slugs.map((s) => `/g/home/r/${s}`);
      // Warm-up: the UI's server build loads on the first page; not part of the measurement.
      for (const p of pages.slice(0, 5)) await server.client.get(p);
      const half = Math.floor(clients / 2);
      const loadAverage = loadavg();
      log(`${clients} clients for ${durationS} s on ${count} recipes…`);
      const cpu0 = await cpuSeconds(server.pid);
      const t0 = performance.now();
      const [searches, pageResult] = await Promise.all([
        run(server.port, searchPaths(5000), half, durationS, {
          authorization: `Bearer ${folder.apiToken}`,
          accept: "application/json",
        }),
        run(server.port, pages, clients - half, durationS, {
          cookie: `mealie.access_token=${folder.apiToken}`,
          accept: "text/html",
        }),
      ]);
      const serverCpuS = (await cpuSeconds(server.pid)) - cpu0;
      const wallS = (performance.now() - t0) / 1000;
      const commit = (await execa("git", ["rev-parse", "HEAD"], { cwd: ROOT, reject: false })).stdout.trim();
      const errorsTotal = searches.errors + searches.non2xx + pageResult.errors + pageResult.non2xx;
      const results: LoadResults = {
        date: new Date().toISOString(),
        commit,
        machine: `${cpus().length} cores (${cpus()[0]?.model.split(" ")[0] ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.versions.node}`,
        loadAverage,
        serverCpuS,
        serverCpuShare: serverCpuS / wallS,
        requestsPerServerCpuS: (searches.requests + pageResult.requests) / serverCpuS,
        recipes: count,
        durationS,
        searches,
        pages: pageResult,
        targets: [
          {
            what: "errors (errors, timeouts, non-2xx)",
            target: "0",
            measured: String(errorsTotal),
            met: errorsTotal === 0,
          },
          { what: "search p99", target: "≤ 2 s", measured: `${searches.p99} ms`, met: searches.p99 <= 2000 },
          {
            what: "recipe page p99",
            target: "≤ 2 s",
            measured: `${pageResult.p99} ms`,
            met: pageResult.p99 <= 2000,
          },
          {
            what: "recipe pages per second",
            target: "≥ 300/s",
            measured: `${pageResult.reqPerSec.toFixed(0)}/s`,
            met: pageResult.reqPerSec >= 300,
          },
        ],
      };
      const section = render(results);
      console.log(section);
      if (write) {
        const mdPath = join(ROOT, "BENCHMARKS.md");
        const md = existsSync(mdPath) ? await readFile(mdPath, "utf8") : "# Benchmarks\n";
        await writeFormatted(mdPath, withLoadSection(md, section));
        await writeFormatted(
          join(ROOT, "bench", "load-results.json"),
          `${JSON.stringify(results, null, 2)}\n`,
        );
        log("wrote the load section of BENCHMARKS.md and bench/load-results.json");
      }
    } finally {
      await server.stop();
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
