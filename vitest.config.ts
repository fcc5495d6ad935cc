import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// CI reads a plain "N passed, N failed" line that .ci/run computes from this JSON report.
// Unit files use a worker per core: Vitest's default of one fewer leaves a 2-core machine running them
// one by one, though most of their time is spent waiting on child processes, servers and the disk.
// Browser journeys run one file at a time: several Chromiums at once on a 2-core machine starve each other.
// They share one worker and its loaded modules (each file starts its own server over its own folder and
// its own Chromium), which spares the five seconds or so a fresh worker takes to load the server's code.

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const UNIT_DIRS = ["core", "cli", "plugins", "web", "tests"];
/**
 * Unit files share their worker's loaded modules too (decision 0210): loading them again for each of
 * 260 files was half of the unit run's CPU on 2 cores. A file that replaces or reloads modules, stubs
 * the environment or globals, or sets V8 flags in its process gets a fresh process of its own instead:
 * what it changes would reach the files after it.
 */
const CHANGES_ITS_PROCESS = /\bvi\.(mock|doMock|unmock|resetModules|stubEnv|stubGlobal)\(|\buseV8Flag\(/;
const unitFiles = UNIT_DIRS.flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" }).map(
    (f) => `${dir}/${f.replaceAll("\\", "/")}`,
  ),
).filter((f) => /\.test\.tsx?$/.test(f) && !f.startsWith("tests/e2e/") && !f.includes("node_modules/"));
const ownProcess = unitFiles.filter((f) => CHANGES_ITS_PROCESS.test(readFileSync(join(ROOT, f), "utf8")));

const unitWorkers = Math.max(2, availableParallelism());

/**
 * The UI's server build (LARDER_BUILD_DIR or build/, as react-router.config.ts reads it), which the
 * browser files' server imports. Node loads its 3 MB bundle in half a second; passed through Vitest's
 * transform first it took ten (decision 0240).
 */
const uiServerBuild = new RegExp(
  `^${resolve(ROOT, process.env.LARDER_BUILD_DIR ?? "build", "server").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/`,
);

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every JSON document update is also validated in full and must come out the same (decision 0190).
    env: { LARDER_VERIFY_INCREMENTAL: "1" },
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          maxWorkers: unitWorkers,
          isolate: false,
          // Projects with their own worker counts run as separate groups, the browser files second.
          sequence: { groupOrder: 0 },
          include: ["{core,cli,plugins,web,tests}/**/*.test.{ts,tsx}"],
          exclude: ["tests/e2e/**", "**/node_modules/**", ...ownProcess],
        },
      },
      {
        extends: true,
        test: {
          name: "unit-own-process",
          maxWorkers: unitWorkers,
          sequence: { groupOrder: 0 },
          include: ownProcess,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          fileParallelism: false,
          isolate: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          server: { deps: { external: [uiServerBuild] } },
        },
      },
    ],
  },
});
