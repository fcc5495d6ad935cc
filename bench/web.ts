/**
 * `npx tsx bench/web.ts [--recipes 1000] [--duration 10] [--connections 200] [--only js|pages]`: the web
 * UI's figures (issue 13), written to BENCHMARKS.md's "Web UI" section by hand from what this prints.
 *
 * - First-load JavaScript of the group home: a fresh Chromium profile (empty cache) signs in by cookie,
 *   opens /g/home and waits for hydration; every .js response's transfer size (compressed, as on the
 *   wire) is added up, with the decoded size beside it.
 * - Recipe pages per second: `larder serve` (dist/, a separate process) over a generated folder, and
 *   autocannon with N connections requesting recipe pages round-robin over every recipe, signed in.
 *
 * Not a test: nothing fails on a slow figure. Needs `npm run build` (dist/ and build/).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { chromium } from "playwright-core";
import { ensureBuilt } from "./build.js";
import { generateFolder } from "./generate.js";
import { startLarder } from "./server.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const log = (s: string) => process.stdout.write(`[bench:web] ${s}\n`);

async function firstLoadJs(url: string, token: string) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: "mealie.access_token", value: token, url }]);
    const page = await context.newPage();
    const scripts: { url: string; transfer: number; decoded: number; encoding: string }[] = [];
    const pending: Promise<void>[] = [];
    page.on("requestfinished", (req) => {
      if (!new URL(req.url()).pathname.endsWith(".js")) return;
      pending.push(
        (async () => {
          const sizes = await req.sizes();
          const res = await req.response();
          const body = res ? await res.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
          const headers = res ? await res.allHeaders() : {};
          scripts.push({
            url: new URL(req.url()).pathname,
            transfer: sizes.responseBodySize,
            decoded: body.length,
            encoding: headers["content-encoding"] ?? "identity",
          });
        })(),
      );
    });
    await page.goto(`${url}/g/home`);
    await page.waitForSelector("body[data-hydrated]", { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    const transfer = scripts.reduce((s, x) => s + x.transfer, 0);
    const decoded = scripts.reduce((s, x) => s + x.decoded, 0);
    const encodings = [...new Set(scripts.map((s) => s.encoding))].join(", ");
    log(
      `group home first load: ${scripts.length} scripts, ${kb(transfer)} KB transferred (${encodings}), ${kb(decoded)} KB decoded`,
    );
    return { scripts: scripts.length, transferKb: kb(transfer), decodedKb: kb(decoded), encodings };
  } finally {
    await browser.close();
  }
}

async function recipePages(
  port: number,
  token: string,
  slugs: string[],
  connections: number,
  durationS: number,
) {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: durationS,
    headers: { cookie: `mealie.access_token=${token}`, "accept-encoding": "br, gzip" },
    requests: [
      {
        method: "GET",
        setupRequest: (req) => ({ ...req, path: `/g/home/r/${slugs[next++ % slugs.length]}` }),
      },
    ],
  });
  const figures = {
    connections,
    durationS,
    pagesPerSec: Math.round(result.requests.average),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
  log(
    `recipe pages: ${figures.pagesPerSec}/s with ${connections} clients (p50 ${figures.p50} ms, p99 ${figures.p99} ms, non-2xx ${figures.non2xx}, errors ${figures.errors})`,
  );
  return figures;
}

async function main() {
  const only = arg("only", "all");
  await ensureBuilt(ROOT, log);
  const work = await mkdtemp(join(tmpdir(), "larder-bench-web-"));
  try {
    const count = Number(arg("recipes", "1000"));
    log(`generating ${count} recipes`);
    const folder = await generateFolder(join(work, "data"), count);
    const server = await startLarder({
      root: ROOT,
      dataDir: folder.dir,
      apiToken: folder.apiToken,
      searchTerm: "soup",
    });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      // The UI build loads on the first page; warm it and every route's code before measuring.
      await fetch(`${url}/g/home`, { headers: { cookie: `mealie.access_token=${folder.apiToken}` } });
      if (only !== "pages") await firstLoadJs(url, folder.apiToken);
      if (only !== "js")
        await recipePages(
          server.port,
          folder.apiToken,
          folder.slugs,
          Number(arg("connections", "200")),
          Number(arg("duration", "10")),
        );
    } finally {
      await server.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
