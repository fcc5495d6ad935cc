/**
 * `npx tsx bench/cpu-per-page.ts [--recipes 300] [--clients 10] [--repeats 1]`: the server's own CPU time
 * per recipe page, which other processes on a shared machine do not change (the wall-clock rate they do).
 * Pages of N distinct recipes are requested by a few clients: the first pass renders each page (cold),
 * the repeat passes find what the first left behind (repeat views, same viewer). Prints the figures.
 * With PROF=DIR the server runs under `node --cpu-prof` (profile written to DIR when it stops): use
 * `--repeats 0` for a profile of first renders, or many repeats for one of cached pages. NODE_ARGS="…"
 * adds options to the server's node (to compare V8 settings).
 */
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ensureBuilt } from "./build.js";
import { generateFolder } from "./generate.js";
import { startLarder } from "./server.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

/** CPU seconds of the process (every thread), or of its main thread alone (the one requests wait for). */
async function cpuSeconds(pid: number, mainThread = false): Promise<number> {
  const stat = await readFile(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function main() {
  const count = arg("recipes", 300);
  const clients = arg("clients", 10);
  await ensureBuilt(ROOT, (s) => console.error(s));
  const tmp = await mkdtemp(join(tmpdir(), "larder-cpu-page-"));
  try {
    const folder = await generateFolder(join(tmp, "data"), count);
    const server = await startLarder({
      root: ROOT,
      dataDir: folder.dir,
      apiToken: folder.apiToken,
      searchTerm: "soup",
      nodeArgs: [
        ...(process.env.PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF}`] : []),
        ...(process.env.NODE_ARGS ? process.env.NODE_ARGS.split(" ") : []),
      ],
    });
    try {
      const paths = folder.slugs.map((s) => `/g/home/r/${s}`);
      await server.client.get("/g/home"); // loads the UI's server build
      const pass = async (name: string) => {
        let next = 0;
        const cpu0 = await cpuSeconds(server.pid);
        const main0 = await cpuSeconds(server.pid, true);
        const r = await autocannon({
          url: `http://127.0.0.1:${server.port}`,
          connections: clients,
          amount: paths.length,
          timeout: 60,
          headers: {
            cookie: `mealie.access_token=${folder.apiToken}`,
            accept: "text/html",
            "accept-encoding": "br, gzip",
          },
          requests: [
            { method: "GET", setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) },
          ],
        });
        const cpu = (await cpuSeconds(server.pid)) - cpu0;
        const main = (await cpuSeconds(server.pid, true)) - main0;
        console.log(
          `${name}: ${r.requests.total} pages, ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors; server CPU ${cpu.toFixed(2)} s = ${((cpu * 1000) / r.requests.total).toFixed(1)} ms per page (${(r.requests.total / cpu).toFixed(0)} pages per CPU second); main thread ${((main * 1000) / r.requests.total).toFixed(1)} ms per page`,
        );
      };
      console.log(
        `load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" / ")}`,
      );
      await pass("first pass (cold)");
      const repeats = arg("repeats", 1);
      for (let i = 0; i < repeats; i++) await pass("repeat pass");
    } finally {
      await server.stop();
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
