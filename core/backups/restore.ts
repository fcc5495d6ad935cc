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
import { chmod, mkdir, readdir, rename, rm, statfs } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LarderError } from "../errors.js";
import { formatBytes } from "../maintenance/disk.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { UNTRACKED_TOP, type Manifest } from "./archive.js";
import { checkStaged } from "./check-staged.js";
import { extractBackup } from "./read-backup.js";
import { restoreInterrupted, restorePaths } from "./restore-paths.js";

type Phase = "staged" | "moving-out" | "moving-in" | "done";

export { restorePaths, type RestorePaths } from "./restore-paths.js";

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

/** Room a restore leaves free beyond the backup's files, for the server's own writes meanwhile. */
const SPARE_BYTES = 64 * 1024 * 1024;

/** 507: the disk cannot hold the backup's files beside the live ones (which stay until the swap). */
export class NotEnoughSpaceError extends LarderError {
  constructor(message: string) {
    super(message, 507);
  }
}

export async function checkFreeSpace(root: string, manifest: Manifest): Promise<void> {
  let need = SPARE_BYTES;
  for (const f of Object.values(manifest.files)) need += f.size;
  const fs = await statfs(root).catch(() => null);
  if (!fs) return;
  const free = fs.bavail * fs.bsize;
  if (free < need)
    throw new NotEnoughSpaceError(
      `Not enough free space to restore: the backup's files need ${formatBytes(need - SPARE_BYTES)} beside the live data, and the disk has ${formatBytes(free)} free`,
    );
}

/**
 * Unpack a backup into the staging folder (its secrets into staging/.larder-secrets/), checking every
 * file against the manifest as it is written; a damaged backup leaves no staging folder behind.
 */
async function unpack(root: string, backup: string): Promise<Manifest> {
  const p = restorePaths(root);
  await rm(p.dir, { recursive: true, force: true });
  await mkdir(p.staging, { recursive: true, mode: 0o700 });
  try {
    return await extractBackup(
      backup,
      (rel) =>
        rel.startsWith(".larder/")
          ? { path: join(p.dir, "secrets", rel.slice(".larder/".length)), mode: 0o600 }
          : { path: join(p.staging, ...rel.split("/")), mode: 0o644 },
      // The disk's room is judged from the manifest, before a file is unpacked.
      (manifest) => checkFreeSpace(root, manifest),
    );
  } catch (e) {
    await cleanUp(root);
    throw e;
  }
}

/**
 * Unpack the backup file `backup` into the restore's staging folder, verifying every file as it is
 * written: a damaged one leaves nothing behind. Only `.larder/restore/` is written, so a server may
 * go on serving meanwhile; swapInStaged then makes it live.
 */
export async function stageBackup(root: string, backup: string, hook?: RestoreHook): Promise<Manifest> {
  const manifest = await unpack(root, backup);
  try {
    await checkStaged(restorePaths(root).staging);
  } catch (e) {
    await cleanUp(root);
    throw e;
  }
  await hook?.("unpacked");
  return manifest;
}

/**
 * Drop a staged backup whose swap never began. A swap that began keeps its journal, for
 * recoverRestore to finish or undo (decision 0071): this leaves it alone.
 */
export async function discardStaged(root: string): Promise<void> {
  if (!existsSync(restorePaths(root).state)) await cleanUp(root);
}

/**
 * Replace the tracked tree of `root` with the staged one (stageBackup). The caller makes sure nothing
 * writes to the folder meanwhile (the server closes its services first).
 */
export async function swapInStaged(root: string, name: string, hook?: RestoreHook): Promise<void> {
  const p = restorePaths(root);
  // Without a staged tree the swap would move the live one out and nothing in.
  if (!existsSync(p.staging) || readPhase(root) !== null)
    throw new Error(`restore: nothing staged to swap in (${p.staging})`);
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

/** stageBackup, then swapInStaged: a whole restore, for a caller holding the folder. */
export async function restoreInto(
  root: string,
  backup: string,
  name: string,
  hook?: RestoreHook,
): Promise<Manifest> {
  const manifest = await stageBackup(root, backup, hook);
  await swapInStaged(root, name, hook);
  return manifest;
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
  if (!restoreInterrupted(root)) return "none";
  const p = restorePaths(root);
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
