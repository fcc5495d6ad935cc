/**
 * `larder serve` as a separate process, the way a user runs it (`npm run larder -- serve`, `npm start`):
 * the bundle (dist/bundle/larder.js) with the heap limit those set, one node process whose pid is the
 * server, so /proc/<pid>/status is the server's own memory. Start-up is timed from
 * just before the spawn to the first answers.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { execa, type ResultPromise } from "execa";
import { HttpClient } from "./http.js";

export interface StartTimes {
  /** Spawn to the first 200 of GET /api/app/about (the server listens only once the index is loaded). */
  firstAnswerMs: number;
  /** Spawn to the first 200 of an authenticated GET /api/recipes (the index answers). */
  firstListMs: number;
  /** Spawn to the first 200 of a search (search structures ready). */
  firstSearchMs: number;
  /**
   * Spawn to the first 200 of the group's home page, signed in (`GET /g/home` with the session
   * cookie), asked after the search: what a person at the browser waits for, the UI's server build
   * loaded and a page of recipes rendered.
   */
  firstPageMs: number;
  /** What the store logged about its start: recipes, how many came from the cache, its own time. */
  indexLog: string | null;
}

export interface RunningLarder {
  pid: number;
  port: number;
  client: HttpClient;
  times: StartTimes;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): Promise<number>;
  /** Current resident set size (VmRSS), in MB. */
  rssMb(): Promise<number>;
  /**
   * Wait until the server has settled after its start (the cache write, the UI build loading in the
   * background): the recipe index cache is on disk (a cold start writes it a while after the open, on
   * a timer, so the CPU alone can look quiet before it begins), then its CPU use is below a tenth of a
   * core over two consecutive 250 ms windows; or `maxMs`. Returns how long it waited.
   */
  settle(maxMs?: number): Promise<number>;
  stop(): Promise<void>;
  output(): string;
}

// A cold start of 50,000 recipes on a busy 2-core machine can take minutes; a slow start is a figure, not a failure.
const START_TIMEOUT_MS = 300_000;

/** The node options `npm start` and `npm run larder` give the server (package.json; decisions 0112, 0130). */
export const SERVER_NODE_ARGS = ["--max-old-space-size=1024", "--max-semi-space-size=4"];
/** The entry they run, after building it if it is stale (scripts/larder.mjs). */
export const SERVER_ENTRY = join("dist", "bundle", "larder.js");
const POLL_MS = 5;

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => ok(port));
    });
  });
}

/** Remove the warm-start caches (the recipe index's and the groups' search indexes), so the next start is cold. */
export async function dropIndexCache(dataDir: string): Promise<void> {
  const dir = join(dataDir, ".larder", "cache");
  // recipe-index.json: the JSON-lines cache before decision 0133; search-<group>.bin: decision 0196.
  const saved = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^search-.*\.bin$/.test(n));
  for (const name of ["recipe-index.bin", "recipe-index.json", ...saved])
    await rm(join(dir, name), { force: true });
}

async function procStatus(pid: number, field: "VmHWM" | "VmRSS"): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, "utf8");
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  if (!m) throw new Error(`bench: no ${field} in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function startLarder(opts: {
  root: string;
  dataDir: string;
  apiToken: string;
  searchTerm: string;
  /** The group whose home page is asked for (default `home`). */
  groupSlug?: string;
  nodeArgs?: string[];
}): Promise<RunningLarder> {
  const port = await freePort();
  let out = "";
  const t0 = performance.now();
  const child: ResultPromise = execa(
    "node",
    [
      ...SERVER_NODE_ARGS,
      ...(opts.nodeArgs ?? []),
      join(opts.root, SERVER_ENTRY),
      "serve",
      "--data",
      opts.dataDir,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
    ],
    {
      cwd: opts.root,
      reject: false,
      all: true,
      // Larder's own defaults: nothing tuned for the benchmark.
      env: { NO_COLOR: "1" },
    },
  );
  child.all?.on("data", (d: Buffer) => (out += d.toString()));
  const pid = child.pid;
  if (pid === undefined) throw new Error("bench: could not start larder serve");
  let exited = false;
  void child.then(() => (exited = true));
  const client = new HttpClient(port, opts.apiToken);

  const until = async (what: string, ok: () => Promise<boolean>): Promise<number> => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`bench: larder serve exited while waiting for ${what}:\n${out}`);
      if (Date.now() > deadline) throw new Error(`bench: no ${what} within ${START_TIMEOUT_MS} ms:\n${out}`);
      if (await ok().catch(() => false)) return performance.now() - t0;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
  let times: StartTimes;
  try {
    const firstAnswerMs = await until(
      "answer",
      async () => (await client.get("/api/app/about", { auth: false })).status === 200,
    );
    const firstListMs = await until(
      "recipe list",
      async () => (await client.get("/api/recipes?perPage=1")).status === 200,
    );
    const firstSearchMs = await until(
      "search",
      async () =>
        (await client.get(`/api/recipes?perPage=1&search=${encodeURIComponent(opts.searchTerm)}`)).status ===
        200,
    );
    const firstPageMs = await until(
      "page",
      async () => (await client.get(`/g/${opts.groupSlug ?? "home"}`, { page: true })).status === 200,
    );
    times = {
      firstAnswerMs,
      firstListMs,
      firstSearchMs,
      firstPageMs,
      indexLog: /recipe index: [^\n]*/.exec(out)?.[0] ?? null,
    };
  } catch (e) {
    child.kill("SIGKILL");
    throw e;
  }
  return {
    pid,
    port,
    client,
    times,
    peakRssMb: () => procStatus(pid, "VmHWM"),
    rssMb: () => procStatus(pid, "VmRSS"),
    settle: async (maxMs = 15_000) => {
      const t = performance.now();
      const cacheFile = join(opts.dataDir, ".larder", "cache", "recipe-index.bin");
      while (!existsSync(cacheFile) && performance.now() - t < maxMs)
        await new Promise((r) => setTimeout(r, 50));
      let quiet = 0;
      let last = await cpuMs(pid);
      while (quiet < 2 && performance.now() - t < maxMs) {
        await new Promise((r) => setTimeout(r, 250));
        const now = await cpuMs(pid);
        quiet = now - last < 25 ? quiet + 1 : 0;
        last = now;
      }
      return performance.now() - t;
    },
    output: () => out,
    stop: async () => {
      client.close();
      if (exited) return;
      // SIGTERM: a clean shutdown, during which the store writes its cache.
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      await child;
      clearTimeout(killer);
    },
  };
}
