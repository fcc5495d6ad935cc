/**
 * What the benchmark measures against a running server: request latency (one client, sequential, so
 * each sample is one request's own time), throughput with concurrent clients (autocannon), and the
 * time from a hand edit of a recipe file to the API showing it. Every loop is bounded in count and time.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import autocannon from "autocannon";
import { median, percentile, type HttpClient } from "./http.js";

/** Searches a user types: common words, two-word queries, a phrase, prefixes, typos, accents. */
export const SEARCH_TERMS = [
  "chicken",
  "garlic butter",
  "choclate",
  "tomato basil soup",
  "creamy",
  '"sweet potato"',
  "ratat",
  "risotto",
  "brocoli",
  "spicy curry",
  "cheddar",
  "smoky paprika",
  "quick weeknight",
  "bread",
  "crème",
  "lemon tart",
  "salmon",
  "pasta",
  "zzqx",
  "mushroom stew",
];

/**
 * Searches asked once each: the server remembers recent searches (core/recipes/recipe-list.ts), so
 * the repeated terms above measure that memory; these measure the search itself. More of them than
 * it remembers, so cycling through them never hits it either.
 */
export const NEW_SEARCHES: string[] = (() => {
  const words = [
    "chicken",
    "beef",
    "pork",
    "salmon",
    "tofu",
    "rice",
    "noodle",
    "potato",
    "tomato",
    "onion",
    "garlic",
    "carrot",
    "lemon",
    "butter",
    "cheese",
    "mushroom",
    "spinach",
    "pepper",
    "basil",
    "ginger",
    "bean",
    "lentil",
    "egg",
    "apple",
  ];
  const with_ = ["", "roast", "creamy", "spicy", "soup", "salad", "curry", "baked", "stew", "quick"];
  const out: string[] = [];
  for (const m of with_) for (const w of words) out.push(m ? `${m} ${w}` : w);
  return out;
})();

/** `queryFilter` + `orderBy` lists, as the Mealie frontend's filters send them. */
export const FILTER_QUERIES = [
  {
    queryFilter: 'tags.name IN ["dinner", "weeknight"] AND recipeServings >= 4',
    orderBy: "name",
    orderDirection: "asc",
  },
  {
    queryFilter: 'dateAdded >= "2023-01-01" AND settings.public = true',
    orderBy: "dateAdded",
    orderDirection: "desc",
  },
  {
    queryFilter: 'recipeCategory.name = "Main" AND lastMade IS NOT NULL',
    orderBy: "lastMade",
    orderDirection: "desc",
  },
  {
    queryFilter: 'tools.name IN ["Oven", "Skillet"] OR recipeServings > 6',
    orderBy: "updatedAt",
    orderDirection: "desc",
  },
];

export function searchPath(term: string): string {
  return `/api/recipes?search=${encodeURIComponent(term)}&perPage=30`;
}

export function filterPath(q: (typeof FILTER_QUERIES)[number]): string {
  return `/api/recipes?${new URLSearchParams({ ...q, perPage: "30" }).toString()}`;
}

export interface Latency {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** With `latencyPasses`: each pass's own figures (the above are their medians). */
  passes?: { p50: number; p95: number; p99: number }[];
}

/** `latency` run `passes` times; each figure is the median of the passes, which are kept for the spread. */
export async function latencyPasses(
  client: HttpClient,
  paths: string[],
  rounds: number,
  maxMs: number,
  warmUp = 1,
  passes = 3,
): Promise<Latency> {
  const runs: Latency[] = [];
  for (let i = 0; i < passes; i++) runs.push(await latency(client, paths, rounds, maxMs / passes, warmUp));
  const mid = (f: (l: Latency) => number) => median(runs.map(f));
  return {
    requests: runs.reduce((a, l) => a + l.requests, 0),
    p50: mid((l) => l.p50),
    p95: mid((l) => l.p95),
    p99: mid((l) => l.p99),
    mean: mid((l) => l.mean),
    passes: runs.map((l) => ({ p50: l.p50, p95: l.p95, p99: l.p99 })),
  };
}

/**
 * `rounds` passes over `paths`, one request at a time; the first `warmUp` passes (default one) are not
 * counted. With `warmUp: 0, rounds: 1` every request is one the server has not seen.
 */
export async function latency(
  client: HttpClient,
  paths: string[],
  rounds: number,
  maxMs: number,
  warmUp = 1,
): Promise<Latency> {
  const samples: number[] = [];
  const deadline = Date.now() + maxMs;
  for (let round = 0; round < rounds && Date.now() < deadline; round++) {
    for (const p of paths) {
      const r = await client.get(p);
      if (r.status !== 200) throw new Error(`bench: GET ${p} → ${r.status}: ${r.body.slice(0, 300)}`);
      if (round >= warmUp) samples.push(r.ms);
    }
  }
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    requests: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    mean,
  };
}

export interface Throughput {
  /** With `throughputPasses`: each pass's req/s (the figures are from the median pass). */
  passes?: number[];
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

/**
 * autocannon on loopback with `connections` concurrent clients. Each client cycles through `paths`,
 * or with `shared`, the clients take the next path of one shared cycle, so no two requests in a row
 * ask the same thing (autocannon's clients otherwise walk the list in step with each other).
 */
export async function throughput(
  port: number,
  token: string,
  paths: string[],
  connections: number,
  durationS: number,
  shared = false,
): Promise<Throughput> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: durationS,
    headers: { authorization: `Bearer ${token}`, accept: "application/json" },
    requests: shared
      ? [{ method: "GET", setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }]
      : paths.map((path) => ({ method: "GET", path })),
  });
  return {
    connections,
    durationS,
    requests: result.requests.total,
    reqPerSec: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** `throughput` run `passes` times; the pass with the median req/s is reported, with every pass's req/s. */
export async function throughputPasses(
  port: number,
  token: string,
  paths: string[],
  connections: number,
  durationS: number,
  shared = false,
  passes = 3,
): Promise<Throughput> {
  const runs: Throughput[] = [];
  for (let i = 0; i < passes; i++)
    runs.push(await throughput(port, token, paths, connections, durationS, shared));
  const sorted = [...runs].sort((a, b) => a.reqPerSec - b.reqPerSec);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], passes: runs.map((r) => r.reqPerSec) };
}

export interface HandEdit {
  edits: number;
  p50: number;
  p95: number;
  max: number;
}

/**
 * Rewrite a recipe file in place, as an editor saving it does, and poll the API until the recipe shows
 * the change. Each edit changes the name, so the list entry, the search index and the recipe all move.
 */
export async function handEdits(
  client: HttpClient,
  recipesDir: string,
  slugs: string[],
  edits: number,
  maxMs: number,
): Promise<HandEdit> {
  const samples: number[] = [];
  const deadline = Date.now() + maxMs;
  for (let i = 0; i < edits && Date.now() < deadline; i++) {
    const slug = slugs[(i * 7919) % slugs.length];
    const path = join(recipesDir, `${slug}.md`);
    const text = await readFile(path, "utf8");
    const marker = `Benchedit${i}x${Date.now().toString(36)}`;
    const edited = text.replace(
      /^name: (.*)$/m,
      (_m, name: string) => `name: ${name.replace(/ Benchedit\w+$/, "")} ${marker}`,
    );
    if (edited === text) throw new Error(`bench: no name line in ${path}`);
    const t0 = performance.now();
    await writeFile(path, edited);
    for (;;) {
      const r = await client.get(`/api/recipes/${slug}`);
      if (r.status === 200 && r.body.includes(marker)) break;
      if (performance.now() - t0 > 10_000)
        throw new Error(`bench: hand edit of ${slug} not visible after 10 s`);
      await new Promise((res) => setTimeout(res, 2));
    }
    samples.push(performance.now() - t0);
    // Edits a person makes are seconds apart; this keeps each one a separate burst for the watcher.
    await new Promise((res) => setTimeout(res, 150));
  }
  return {
    edits: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    max: Math.max(...samples),
  };
}
