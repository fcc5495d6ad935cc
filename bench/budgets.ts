/**
 * `npm run bench:budgets` (issue 22): the web UI's speed budgets, measured with Chromium (playwright-core,
 * /usr/bin/chromium) against `larder serve` (dist/ and build/, a separate process) over a generated
 * folder of 10,000 recipes, signed in by cookie. Writes the "Budgets" section of BENCHMARKS.md and
 * bench/budgets-results.json.
 *
 * - Group home, first contentful paint on loopback (≤ 1 s): median of three cold loads (fresh profile).
 * - Group home, JavaScript on first load (≤ 150 KB compressed): every script's transfer size (as on the
 *   wire, brotli) of a cold load until the page has hydrated and the network is idle.
 * - No long task over 200 ms while scrolling 200 cards: the home shows 30 cards a page (spec §2's
 *   pagination), so the script scrolls each page to its end in small steps, one per frame, then follows
 *   "next" (a client-side navigation), until 200 cards went by; every long task (PerformanceObserver
 *   "longtask") from the first scroll to the last is recorded.
 * - Recipe page, largest contentful paint on DevTools' "Fast 3G" profile (562.5 ms latency, 180 kB/s down,
 *   84.4 kB/s up; CDP Network.emulateNetworkConditions) (≤ 1.2 s): a cold load (empty cache) and a repeat
 *   visit (cached stylesheets and scripts, once the first visit's loads are done) of the same page.
 *
 * Options: --recipes N (10000), --no-write. Not a test: nothing fails on a slow figure.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { ensureBuilt } from "./build.js";
import { generateFolder } from "./generate.js";
import { startLarder } from "./server.js";
import { writeFormatted } from "./write-formatted.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- bench:budgets:start -->";
const END = "<!-- bench:budgets:end -->";
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
/** DevTools' "Fast 3G" preset. */
const FAST_3G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
};
const CARDS_TO_SCROLL = 200;

const log = (s: string) => console.error(`bench:budgets: ${s}`);
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

/** Records paint, LCP and long-task entries from the start of every document of the context. */
const OBSERVERS = `
  window.__perf = { lcp: 0, longTasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__perf.lcp = e.startTime; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__perf.longTasks.push({ at: e.startTime, ms: e.duration }); })
    .observe({ type: "longtask", buffered: true });
`;

interface PerfWindow {
  __perf: { lcp: number; longTasks: { at: number; ms: number }[] };
}

async function signedInContext(browser: Browser, url: string, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: "mealie.access_token", value: token, url }]);
  await context.addInitScript(OBSERVERS);
  return context;
}

async function homeFirstLoad(browser: Browser, url: string, token: string) {
  const fcps: number[] = [];
  let js = { scripts: 0, transferKb: 0, decodedKb: 0 };
  for (let run = 0; run < 3; run++) {
    const context = await signedInContext(browser, url, token);
    const page = await context.newPage();
    const sizes: Promise<{ transfer: number; decoded: number }>[] = [];
    page.on("requestfinished", (req) => {
      if (!new URL(req.url()).pathname.endsWith(".js")) return;
      sizes.push(
        (async () => {
          const s = await req.sizes();
          const body = await (await req.response())?.body().catch(() => Buffer.alloc(0));
          return { transfer: s.responseBodySize, decoded: body?.length ?? 0 };
        })(),
      );
    });
    await page.goto(`${url}/g/home`);
    await page.waitForSelector("body[data-hydrated]", { timeout: 60_000 });
    await page.waitForLoadState("networkidle");
    const fcp = await page.evaluate(
      () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    );
    fcps.push(Math.round(fcp));
    if (run === 0) {
      const all = await Promise.all(sizes);
      js = {
        scripts: all.length,
        transferKb: kb(all.reduce((s, x) => s + x.transfer, 0)),
        decodedKb: kb(all.reduce((s, x) => s + x.decoded, 0)),
      };
    }
    await context.close();
  }
  log(`group home: FCP ${fcps.join(", ")} ms; first-load JS ${js.transferKb} KB (${js.scripts} scripts)`);
  return { fcpMs: median(fcps), fcpRuns: fcps, js };
}

async function scrollCards(browser: Browser, url: string, token: string) {
  const context = await signedInContext(browser, url, token);
  const page = await context.newPage();
  await page.goto(`${url}/g/home`);
  await page.waitForSelector("body[data-hydrated]", { timeout: 60_000 });
  await page.waitForLoadState("networkidle");
  const from = await page.evaluate(() => performance.now());
  let cards = 0;
  let pages = 0;
  while (cards < CARDS_TO_SCROLL) {
    pages++;
    cards += await page.locator('[data-testid="recipe-card"]').count();
    // One step of 200 px a frame, to the end of the page, as a reader flicking through it.
    // A string, not a function: tsx would wrap a named inner function in a helper the page lacks.
    await page.evaluate(`new Promise((done) => {
      const step = () => {
        if (scrollY >= document.documentElement.scrollHeight - innerHeight - 1) return done();
        scrollBy(0, 200);
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    })`);
    if (cards >= CARDS_TO_SCROLL) break;
    const next = page.locator('a[rel="next"]');
    if ((await next.count()) === 0) break;
    const before = page.url();
    const target = await next.first().getAttribute("href");
    await next.first().click();
    // A client-side navigation: there is no load event to wait for, only the new address and the new
    // page's links (the address changes before React has rendered the page it leads to).
    await page.waitForFunction(
      ([was, to]) =>
        location.href !== was &&
        ![...document.querySelectorAll('a[rel="next"]')].some((a) => a.getAttribute("href") === to),
      [before, target] as const,
    );
    await page.waitForLoadState("networkidle");
  }
  const tasks = await page.evaluate(
    (t0) => (window as unknown as PerfWindow).__perf.longTasks.filter((t) => t.at >= t0),
    from,
  );
  await context.close();
  const longest = Math.round(Math.max(0, ...tasks.map((t) => t.ms)));
  const over200 = tasks.filter((t) => t.ms > 200).length;
  log(`scrolling ${cards} cards over ${pages} pages: ${tasks.length} long tasks, longest ${longest} ms`);
  return { cards, pages, longTasks: tasks.length, over200, longestMs: longest };
}

async function recipeLcp(browser: Browser, url: string, token: string, slug: string) {
  const context = await signedInContext(browser, url, token);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", FAST_3G);
  const measure = async () => {
    await page.goto(`${url}/g/home/r/${slug}`, { waitUntil: "load", timeout: 120_000 });
    // LCP is final once the page has had a frame after load.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
    return Math.round(await page.evaluate(() => (window as unknown as PerfWindow).__perf.lcp));
  };
  const cold = await measure();
  // A later visit: the first page has finished its loads, the stylesheets it had inline among them
  // (decision 0309), rather than a reload while they still come.
  await page.waitForLoadState("networkidle");
  const repeat = await measure();
  await context.close();
  log(`recipe page on Fast 3G: LCP ${cold} ms cold, ${repeat} ms on a repeat visit`);
  return { coldMs: cold, repeatMs: repeat };
}

interface Results {
  date: string;
  commit: string;
  machine: string;
  loadAverage: number[];
  recipes: number;
  home: Awaited<ReturnType<typeof homeFirstLoad>>;
  scroll: Awaited<ReturnType<typeof scrollCards>>;
  recipe: Awaited<ReturnType<typeof recipeLcp>>;
  targets: { what: string; target: string; measured: string; met: boolean }[];
}

function render(r: Results): string {
  return [
    START,
    "## Budgets: the web UI in Chromium (issue 22)",
    "",
    "Written by `npm run bench:budgets` (bench/budgets.ts); do not edit by hand. Raw figures: `bench/budgets-results.json`.",
    "",
    `- commit: \`${r.commit}\`; date: ${r.date}`,
    `- machine: ${r.machine}; load average at start: ${r.loadAverage.map((l) => l.toFixed(2)).join(" / ")}`,
    `- ${r.recipes} generated recipes; Chromium headless on the same machine; signed in by cookie`,
    "",
    "| | target | measured | met |",
    "|---|---|---|---|",
    ...r.targets.map((t) => `| ${t.what} | ${t.target} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`),
    "",
    `First contentful paint of the three cold loads: ${r.home.fcpRuns.join(", ")} ms. First-load JavaScript: ${r.home.js.scripts} scripts, ${r.home.js.decodedKb} KB decoded. Scrolling: ${r.scroll.cards} cards over ${r.scroll.pages} pages (30 a page, "next" between them), ${r.scroll.longTasks} long tasks (> 50 ms), ${r.scroll.over200} over 200 ms. Recipe page LCP on a repeat visit (stylesheets and scripts cached): ${r.recipe.repeatMs} ms.`,
    END,
  ].join("\n");
}

async function main(): Promise<void> {
  const count = Number(arg("recipes", "10000"));
  const write = !process.argv.includes("--no-write");
  await ensureBuilt(ROOT, log);
  if (!existsSync(join(ROOT, "build", "server", "index.js")))
    await execa("npm", ["run", "build:web"], { cwd: ROOT, stdio: "inherit" });
  const work = await mkdtemp(join(tmpdir(), "larder-budgets-"));
  try {
    log(`generating ${count} recipes`);
    const folder = await generateFolder(join(work, "data"), count);
    const server = await startLarder({
      root: ROOT,
      dataDir: folder.dir,
      apiToken: folder.apiToken,
      searchTerm: "soup",
    });
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const loadAverage = loadavg();
      // The UI's server build loads on the first page: not part of any measurement.
      await fetch(`${url}/g/home`, { headers: { cookie: `mealie.access_token=${folder.apiToken}` } });
      const home = await homeFirstLoad(browser, url, folder.apiToken);
      const scroll = await scrollCards(browser, url, folder.apiToken);
      const recipe = await recipeLcp(browser, url, folder.apiToken, folder.slugs[0]);
      const commit = (await execa("git", ["rev-parse", "HEAD"], { cwd: ROOT, reject: false })).stdout.trim();
      const results: Results = {
        date: new Date().toISOString(),
        commit,
        machine: `${cpus().length} cores, Node ${process.versions.node}`,
        loadAverage,
        recipes: count,
        home,
        scroll,
        recipe,
        targets: [
          {
            what: "group home: first contentful paint, loopback (median of 3 cold loads)",
            target: "≤ 1 s",
            measured: `${home.fcpMs} ms`,
            met: home.fcpMs >= 0 && home.fcpMs <= 1000,
          },
          {
            what: "group home: JavaScript on first load, compressed",
            target: "≤ 150 KB",
            measured: `${home.js.transferKb} KB`,
            met: home.js.transferKb <= 150,
          },
          {
            what: `group home: longest task while scrolling ${scroll.cards} cards`,
            target: "≤ 200 ms",
            measured: `${scroll.longestMs} ms`,
            met: scroll.over200 === 0 && scroll.cards >= CARDS_TO_SCROLL,
          },
          {
            what: 'recipe page: largest contentful paint, "Fast 3G", cold cache',
            target: "≤ 1.2 s",
            measured: `${recipe.coldMs} ms`,
            met: recipe.coldMs > 0 && recipe.coldMs <= 1200,
          },
        ],
      };
      const section = render(results);
      console.log(section);
      if (write) {
        const mdPath = join(ROOT, "BENCHMARKS.md");
        const md = existsSync(mdPath) ? await readFile(mdPath, "utf8") : "# Benchmarks\n";
        const a = md.indexOf(START);
        const b = md.indexOf(END);
        const next =
          a >= 0 && b > a
            ? md.slice(0, a) + section + md.slice(b + END.length)
            : `${md.trimEnd()}\n\n${section}\n`;
        await writeFormatted(mdPath, next);
        await writeFormatted(
          join(ROOT, "bench", "budgets-results.json"),
          `${JSON.stringify(results, null, 2)}\n`,
        );
        log("wrote the budgets section of BENCHMARKS.md and bench/budgets-results.json");
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
