/**
 * The server is measured as users run it: the compiled JS in dist/. Rebuild (`npm run build:ts`) when
 * any source file is newer than the build, so a figure never describes stale code.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

const SOURCES = ["core", "cli", "web/server", "web/api", "plugins"];

function newestSource(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export async function ensureBuilt(root: string, log: (s: string) => void): Promise<{ rebuilt: boolean }> {
  // The server runs from the bundle (bench/server.ts), built from the same sources when stale.
  const { buildIfStale } = (await import(join(root, "scripts", "build-if-stale.mjs"))) as {
    buildIfStale(o: { log: (s: string) => void }): Promise<string[]>;
  };
  await buildIfStale({ log });
  const entry = join(root, "dist", "cli", "index.js");
  const built = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map((s) => newestSource(join(root, s))));
  if (built > newest) return { rebuilt: false };
  log("dist/ is missing or older than the sources: npm run build:ts");
  const r = await execa("npm", ["run", "build:ts"], { cwd: root, reject: false, all: true });
  // tsc emits even with type errors; a type error elsewhere in the tree need not stop a measurement,
  // but it is shown, and a build that produced nothing is fatal.
  if (r.exitCode !== 0)
    log(
      `build:ts exited with ${r.exitCode}:\n${(r.all ?? "")
        .split("\n")
        .filter((l) => /error/.test(l))
        .slice(0, 10)
        .join("\n")}`,
    );
  if (!existsSync(entry) || statSync(entry).mtimeMs <= built)
    throw new Error("bench: npm run build:ts did not produce dist/cli/index.js");
  return { rebuilt: true };
}
