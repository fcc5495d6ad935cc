/**
 * Restoring a verified backup into a data folder without ever leaving half of each (decision 0071).
 *
 * The tracked tree is many top-level entries (larder.json, users.json, groups/ …) beside `.larder/`,
 * which stays, so the swap cannot be one rename. It is a journal in `.larder/restore/state.json`:
 *   staged     the backup is unpacked in `.larder/restore/staging/` (a crash: staging is dropped);
 *   moving-out live entries move to `.larder/restore/old/` (a crash: they move back — rolled back);
 *   moving-in  every live entry is in old/, staged ones move in (a crash: the rest move in — rolled forward);
 *   done       old/ is removed.
 * Every move is a rename inside the data folder (one file system), and each phase is written
 * atomically before its first move, so `recoverRestore` on the next open always knows which way to go.
 */
import { chmod, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { UNTRACKED_TOP, type ReadBackup } from "./archive.js";

type Phase = "staged" | "moving-out" | "moving-in" | "done";

export interface RestorePaths {
  dir: string;
  staging: string;
  old: string;
  state: string;
}

export function restorePaths(root: string): RestorePaths {
  const dir = join(root, ".larder", "restore");
  return { dir, staging: join(dir, "staging"), old: join(dir, "old"), state: join(dir, "state.json") };
}

/** Test hook: called after each phase is recorded, so a test can "crash" between steps. */
export type RestoreHook = (phase: Phase | "unpacked" | "moved-out") => void | Promise<void>;

async function setPhase(root: string, phase: Phase, backup: string): Promise<void> {
  const p = restorePaths(root);
  await writeFileAtomic(p.state, JSON.stringify({ phase, backup, at: new Date().toISOString() }) + "\n", {
    tmpDir: join(root, ".larder", "tmp"),
    mode: 0o600,
  });
}

function readPhase(root: string): Phase | null {
  const p = restorePaths(root);
  if (!existsSync(p.state)) return null;
  try {
    const phase = (JSON.parse(readFileSync(p.state, "utf8")) as { phase?: unknown }).phase;
    return phase === "staged" || phase === "moving-out" || phase === "moving-in" || phase === "done"
      ? phase
      : null;
  } catch {
    return null;
  }
}

async function tracked(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((n) => !UNTRACKED_TOP.has(n));
}

/** Unpack a verified backup into the staging folder (its secrets into staging/.larder-secrets/). */
async function unpack(root: string, backup: ReadBackup): Promise<void> {
  const p = restorePaths(root);
  await rm(p.dir, { recursive: true, force: true });
  await mkdir(p.staging, { recursive: true, mode: 0o700 });
  for (const [rel, data] of backup.files) {
    const target = rel.startsWith(".larder/")
      ? join(p.dir, "secrets", rel.slice(".larder/".length))
      : join(p.staging, ...rel.split("/"));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data, { mode: rel.startsWith(".larder/") ? 0o600 : 0o644, flag: "wx" });
  }
}

/**
 * Replace the tracked tree of `root` with the backup's. The caller has verified the backup and made
 * sure nothing writes to the folder meanwhile (the server closes its services first).
 */
export async function restoreInto(
  root: string,
  backup: ReadBackup,
  name: string,
  hook?: RestoreHook,
): Promise<void> {
  const p = restorePaths(root);
  await unpack(root, backup);
  await hook?.("unpacked");
  await setPhase(root, "staged", name);
  await hook?.("staged");
  await setPhase(root, "moving-out", name);
  await mkdir(p.old, { recursive: true });
  for (const n of await tracked(root)) await rename(join(root, n), join(p.old, n));
  await hook?.("moved-out");
  await setPhase(root, "moving-in", name);
  await hook?.("moving-in");
  await finishMovingIn(root);
  await setPhase(root, "done", name);
  await hook?.("done");
  await cleanUp(root);
}

async function finishMovingIn(root: string): Promise<void> {
  const p = restorePaths(root);
  for (const n of await tracked(p.staging)) await rename(join(p.staging, n), join(root, n));
  // Secrets replace the live ones file by file (each rename atomic); others in .larder/ stay.
  const secrets = join(p.dir, "secrets");
  for (const n of await readdir(secrets).catch(() => [] as string[])) {
    await rename(join(secrets, n), join(root, ".larder", n));
    await chmod(join(root, ".larder", n), 0o600).catch(() => undefined);
  }
}

async function cleanUp(root: string): Promise<void> {
  await rm(restorePaths(root).dir, { recursive: true, force: true });
}

/**
 * Finish or undo a restore a crash interrupted; called when a folder is opened, before anything reads
 * it. Returns what it did, for the log.
 */
export async function recoverRestore(root: string): Promise<"none" | "rolled-back" | "completed"> {
  const p = restorePaths(root);
  if (!existsSync(p.dir)) return "none";
  const phase = readPhase(root);
  if (phase === "moving-out") {
    // Some live entries may already be in old/: put them back; the staged copy is dropped.
    for (const n of await tracked(p.old)) {
      if (existsSync(join(root, n)))
        throw new Error(
          `cannot roll back the interrupted restore: ${n} exists in both places (see ${p.dir})`,
        );
      await rename(join(p.old, n), join(root, n));
    }
    await cleanUp(root);
    return "rolled-back";
  }
  if (phase === "moving-in") {
    await finishMovingIn(root);
    await cleanUp(root);
    return "completed";
  }
  if (phase === "done") {
    await cleanUp(root);
    return "completed";
  }
  // No phase, or only staged: the live tree was never touched.
  await cleanUp(root);
  return "rolled-back";
}
