/**
 * Build what is missing or older than its sources, and nothing else (decision 0111): `npm start` and
 * `npm run larder` call this before they run the bundle, so a current build starts at once and a
 * change to the code is never served stale. A file walk of the sources costs a few tens of ms.
 *
 * - the bundle (dist/bundle/larder.js): from core, cli, web/server, web/api, plugins; esbuild, seconds;
 * - the UI's build (build/server/index.js), only when asked (`serve`): from web/app and the core code
 *   its loaders import; `react-router build`, about a minute.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["node_modules", "dist", "build", ".git", ".demo"]);

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let best = 0;
  for (const e of readdirSync(path, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = join(path, e.name);
    if (e.isDirectory()) best = Math.max(best, newest(p));
    else if (/\.(ts|tsx|mts|js|mjs|json|css)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      best = Math.max(best, statSync(p).mtimeMs);
  }
  return best;
}

const built = (file) => (existsSync(join(ROOT, file)) ? statSync(join(ROOT, file)).mtimeMs : 0);
const sourcesOf = (list) => Math.max(...list.map((p) => newest(join(ROOT, p))));

const BUNDLE_SOURCES = [
  "core",
  "cli",
  "web/server",
  "web/api",
  "plugins",
  "package-lock.json",
  "scripts/bundle.mjs",
];
const UI_SOURCES = [
  "web/app",
  "web/vite",
  "core",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

/** Whether dist/bundle/larder.js exists and is newer than every source it is built from. */
export function bundleIsCurrent() {
  return built("dist/bundle/larder.js") > sourcesOf(BUNDLE_SOURCES);
}

const uiIsCurrent = () => built("build/server/index.js") > sourcesOf(UI_SOURCES);

/**
 * One build at a time: two starts at once (two `npm start`, a server and a CLI command) each began the
 * same build into the same folders, and the UI's build deletes its folder first, so one start's files
 * went missing under the other (pages without their scripts). The lock is a directory (mkdir is
 * atomic) holding the builder's pid; a lock whose process is gone was left by a killed build.
 */
export const BUILD_LOCK = join(ROOT, "node_modules", ".cache", "larder-build.lock");

function lockHolderAlive(lock) {
  let pid = 0;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // Taken a moment ago and its pid not yet written, or gone: judge by the lock's age.
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** Run `fn` holding the build lock; where no lock can be made (a read-only install), run it without. */
export async function withBuildLock(log, fn, lock = BUILD_LOCK) {
  try {
    mkdirSync(dirname(lock), { recursive: true });
  } catch {
    return fn();
  }
  for (let told = false; ;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") return fn();
      if (!lockHolderAlive(lock)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (!told) log("larder: another start is building; waiting for it to finish");
      told = true;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Build the bundle (and with `ui`, the UI) when stale; returns what was rebuilt. A start that finds
 * another building waits for it, then builds only what is still stale.
 */
export async function buildIfStale({ ui = false, log = (s) => process.stderr.write(`${s}\n`) } = {}) {
  if (bundleIsCurrent() && (!ui || uiIsCurrent())) return [];
  return withBuildLock(log, () => build(ui, log));
}

async function build(ui, log) {
  const rebuilt = [];
  if (!bundleIsCurrent()) {
    log("larder: building dist/bundle (the sources changed since the last build)");
    const { bundle } = await import("./bundle.mjs");
    await bundle();
    rebuilt.push("bundle");
  }
  if (ui && !uiIsCurrent()) {
    log("larder: building the web UI (react-router build, about a minute)");
    const r = spawnSync("npx", ["react-router", "build"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (r.status !== 0) log("larder: the web UI build failed; serving the API only");
    rebuilt.push("ui");
  }
  return rebuilt;
}
