/**
 * The demo: `larder serve --demo` never serves the repo's tracked `data/` in place (ARCHITECTURE §1);
 * on first run it copies it to an ignored `.demo/` in the current directory and serves that.
 */
import { existsSync, readdirSync } from "node:fs";
import { cp, rename, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Larder } from "../core/larder.js";
import { FIRST_ADMIN } from "../core/users/first-admin.js";
import { seedDemoWeek } from "../core/demo/demo-week.js";
import { CliError, EXIT } from "./output.js";

export const DEMO_PASSWORD = FIRST_ADMIN.password;

/** The shipped demo folder: `data/` beside the installation, from source (tsx) or from dist/. */
export function demoSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "data");
    if (existsSync(join(candidate, "larder.json"))) return candidate;
    dir = dirname(dir);
  }
  throw new CliError(
    "The demo data folder (data/larder.json) was not found next to the Larder installation",
    EXIT.failure,
  );
}

/** Copy the demo to `<cwd>/.demo` unless it is already there; returns its path. */
export async function prepareDemoFolder(cwd = process.cwd()): Promise<{ dir: string; copied: boolean }> {
  const dir = resolve(cwd, ".demo");
  if (existsSync(join(dir, "larder.json"))) return { dir, copied: false };
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    // Half a copy (a crash mid-copy) or something else: not ours to delete.
    throw new CliError(
      `${dir} exists but is not a Larder data folder; remove it to get a fresh demo`,
      EXIT.failure,
    );
  }
  const source = demoSourceDir();
  // Copy beside the target, then rename: an interrupted copy never looks like a finished demo.
  const staging = resolve(cwd, `.demo.partial-${process.pid}`);
  try {
    await cp(source, staging, {
      recursive: true,
      // Machine-local state (a developer who once served data/ in place) and VCS metadata stay behind.
      filter: (src) => src !== join(source, ".larder") && src !== join(source, ".git"),
    });
    await rename(staging, dir);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
  return { dir, copied: true };
}

/**
 * ARCHITECTURE §8: the demo admin (who owns the demo recipes) gets MyPassword in `.demo/.larder/` when
 * no password is set — the copied folder has users but, like any git clone, no credentials.
 */
export async function ensureDemoLogin(
  larder: Larder,
): Promise<{ username: string; email: string; passwordSet: boolean } | null> {
  const admin = larder.users.all().find((u) => u.admin);
  if (!admin) return null;
  let passwordSet = false;
  if (!larder.auth.hasPassword(admin.id)) {
    await larder.auth.setPassword(admin.id, DEMO_PASSWORD, { isDefault: true });
    passwordSet = true;
  }
  return { username: admin.username, email: admin.email, passwordSet };
}

/**
 * A demo folder copied on this run gets its week (core/demo/demo-week.ts) before anyone signs in, and
 * the reset's baseline, taken as the folder opened, is taken again with it. A failure is logged: the
 * demo still serves its recipes.
 */
export async function seedNewDemo(larder: Larder): Promise<void> {
  const admin = larder.users.all().find((u) => u.admin);
  if (!admin) return;
  try {
    if (!(await seedDemoWeek(larder, { kind: "user", user: admin }))) return;
    larder.log.info(
      "demo: meals planned around today, a shopping list and two cookbooks added; the baseline is taken again",
    );
    await larder.demo.dropBaseline();
    await larder.demo.ensureBaseline();
  } catch (e) {
    larder.log.warn("demo: could not plan the demo's week:", e);
  }
}
