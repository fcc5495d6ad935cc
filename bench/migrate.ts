/**
 * `npm run bench:migrate`: how long moving in from another app takes. Generates Nextcloud Cookbook exports
 * (one folder per recipe with its `recipe.json`, a small picture in every tenth), then runs
 * `larder migrate` from the built bundle, as a user runs it, into a fresh data folder: the whole run,
 * its CPU and peak memory, and a second run of the same export (every recipe found and skipped).
 * Writes the "Migration" section of BENCHMARKS.md (kept by `npm run bench`); `--no-write` only prints.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import sharp from "sharp";
import { makeZip, type ZipSpec } from "../tests/support/zip-writer.js";
import { ensureBuilt } from "./build.js";
import { SERVER_NODE_ARGS } from "./server.js";
import { withSections } from "./sections.js";
import { writeFormatted } from "./write-formatted.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = [1_000, 5_000];
const log = (s: string) => process.stdout.write(`[bench:migrate] ${s}\n`);

const FOODS =
  "chicken garlic lemon basil tomato onion pepper rice beans pasta cheese butter cream potato carrot".split(
    " ",
  );

/** A Nextcloud Cookbook export of `n` recipes; every tenth has a picture. Deterministic. */
async function exportOf(n: number): Promise<Buffer> {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c84" } })
    .jpeg()
    .toBuffer();
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = () => FOODS[Math.floor(rnd() * FOODS.length)];
  const specs: ZipSpec[] = [];
  for (let i = 0; i < n; i++) {
    const name = `${pick()[0].toUpperCase()}${pick().slice(1)} and ${pick()} dish ${i}`;
    const recipe = {
      "@type": "Recipe",
      id: String(10_000 + i),
      name,
      description: `Recipe ${i} of the benchmark's export.`,
      recipeYield: 4,
      prepTime: "PT15M",
      cookTime: "PT30M",
      totalTime: "PT45M",
      recipeCategory: "Mains",
      keywords: "easy,weeknight",
      recipeIngredient: Array.from({ length: 8 }, () => `${1 + Math.floor(rnd() * 4)} cups ${pick()}`),
      recipeInstructions: Array.from(
        { length: 6 },
        (_, k) => `Cook the ${pick()} for ${5 * (k + 1)} minutes.`,
      ),
      dateCreated: "2024-01-01T10:00:00+0000",
      url: `https://example.test/recipes/${i}`,
    };
    specs.push({ name: `${name}/recipe.json`, data: JSON.stringify(recipe) });
    if (i % 10 === 0) specs.push({ name: `${name}/full.jpg`, data: picture });
  }
  return makeZip(specs);
}

interface Run {
  ms: number;
  cpuMs: number;
  peakMb: number;
  imported: number;
  skipped: number;
  failed: number;
}

/** `larder migrate` as a user runs it, timed by GNU time's view of the process. */
async function migrate(zip: string, data: string): Promise<Run> {
  const t0 = performance.now();
  const r = await execa(
    "/usr/bin/time",
    [
      "-f",
      "%U %S %M",
      "node",
      ...SERVER_NODE_ARGS,
      join(ROOT, "dist", "bundle", "larder.js"),
      "migrate",
      zip,
      "--from",
      "nextcloud",
      "--data",
      data,
      "--json",
    ],
    { reject: false },
  );
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`bench:migrate: larder migrate failed:\n${r.stdout}\n${r.stderr}`);
  const [user, sys, kb] = r.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
  const out = JSON.parse(r.stdout) as { imported: number; skipped: number; failed: number };
  return {
    ms,
    cpuMs: (user + sys) * 1000,
    peakMb: kb / 1024,
    imported: out.imported,
    skipped: out.skipped,
    failed: out.failed,
  };
}

function render(rows: { n: number; first: Run; again: Run }[], meta: string[]): string {
  const f = (x: number) => Math.round(x).toLocaleString("en-US");
  return [
    "<!-- bench:migrate:start -->",
    "",
    "## Migration (`npm run bench:migrate`)",
    "",
    "Written by `npm run bench:migrate` (bench/migrate.ts); do not edit by hand. A generated Nextcloud Cookbook",
    "export (a picture in every tenth recipe) through `larder migrate` from the built bundle into a fresh data",
    "folder; then the same export again, every recipe found and skipped. Each recipe is written and synced to",
    "disk on its own (with its folder), as any recipe Larder saves.",
    "",
    ...meta,
    "",
    "| recipes | run | wall clock | per recipe | CPU | peak RSS | imported / skipped / failed |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.flatMap(({ n, first, again }) =>
      (
        [
          ["first", first],
          ["again", again],
        ] as const
      ).map(
        ([label, run]) =>
          `| ${f(n)} | ${label} | ${(run.ms / 1000).toFixed(1)} s | ${(run.ms / n).toFixed(1)} ms | ${(run.cpuMs / 1000).toFixed(1)} s | ${f(run.peakMb)} MB | ${f(run.imported)} / ${f(run.skipped)} / ${f(run.failed)} |`,
      ),
    ),
    "",
    "<!-- bench:migrate:end -->",
  ].join("\n");
}

async function main(): Promise<void> {
  const write = !process.argv.includes("--no-write");
  await ensureBuilt(ROOT, log);
  const base = await mkdtemp(join(tmpdir(), "larder-bench-migrate-"));
  const load = loadavg();
  const rows: { n: number; first: Run; again: Run }[] = [];
  try {
    for (const n of SIZES) {
      const zip = join(base, `nextcloud-${n}.zip`);
      await writeFile(zip, await exportOf(n));
      const data = join(base, `data-${n}`);
      await execa("node", [join(ROOT, "dist", "bundle", "larder.js"), "init", data]);
      log(`${n} recipes: first run`);
      const first = await migrate(zip, data);
      log(`${n} recipes: ${(first.ms / 1000).toFixed(1)} s; again`);
      const again = await migrate(zip, data);
      rows.push({ n, first, again });
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  const commit = (await execa("git", ["rev-parse", "HEAD"], { cwd: ROOT, reject: false })).stdout.trim();
  const meta = [
    `- commit: \`${commit}\`; date: ${new Date().toISOString()}`,
    `- machine: ${cpus().length} cores (${cpus()[0]?.model.split(" ")[0] ?? "?"}), ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.versions.node}; load average at start: ${load.map((l) => l.toFixed(2)).join(" / ")}`,
  ];
  const section = render(rows, meta);
  console.log(section);
  if (write) {
    const mdPath = join(ROOT, "BENCHMARKS.md");
    const md = existsSync(mdPath) ? await readFile(mdPath, "utf8") : "# Benchmarks\n";
    await writeFormatted(mdPath, withSections(md, [section]));
    log("wrote the migration section of BENCHMARKS.md");
  }
}

await main();
