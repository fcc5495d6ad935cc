/**
 * Markers in `.larder/tmp` announcing a piece of work that takes two system calls (an import's media
 * folder, then its recipe file; a renamed recipe's file, then its media folder). The marker goes once
 * both are done; a marker whose writer is gone at the next open means the process was killed between
 * the two, and the opener finishes or undoes the work.
 *
 * A marker is named `<kind>.<pid>.<random>.pending` and holds a line of text. It is not fsynced: a
 * killed process's writes survive in the page cache; after a power cut the half-done work is back.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { errnoCode } from "./atomic-write.js";
import type { DataFolder } from "./data-folder.js";
import { isProcessAlive } from "./process-alive.js";

const SUFFIX = ".pending";
/** A marker this old is stale whoever wrote it: none of this work takes an hour. */
const MAX_AGE_MS = 60 * 60 * 1000;

export interface WorkMarker {
  /** The work is finished (or undone): forget it. */
  done(): Promise<void>;
}

/** Announce work of `kind` described by `text`, before its first step. */
export async function markWork(folder: DataFolder, kind: string, text: string): Promise<WorkMarker> {
  const marker = path.join(
    folder.tmpDir,
    `${kind}.${process.pid}.${randomBytes(6).toString("hex")}${SUFFIX}`,
  );
  await writeFile(marker, text, { mode: 0o600 });
  return { done: () => unlink(marker).catch(() => undefined) };
}

/**
 * Hands `finish` the text of each marker of `kind` whose writer is gone (or that is over an hour old),
 * then removes the marker. Markers of live processes are left alone; a marker `finish` fails on is
 * left for the next open.
 */
export async function finishAbandonedWork(
  folder: DataFolder,
  kind: string,
  finish: (text: string) => Promise<void>,
  now = Date.now(),
): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder.tmpDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return;
    throw e;
  }
  const prefix = `${kind}.`;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(SUFFIX)) continue;
    const marker = path.join(folder.tmpDir, name);
    try {
      const pid = Number(name.slice(prefix.length).split(".")[0]);
      const old = now - (await stat(marker)).mtimeMs > MAX_AGE_MS;
      if (!old && (pid === process.pid || isProcessAlive(pid))) continue;
      await finish(await readFile(marker, "utf8"));
      await unlink(marker);
    } catch {
      // Raced with another opener, or the marker is unreadable: the next start looks again.
    }
  }
}

/**
 * The media folder `rel` (relative to the folder) names, as an absolute path: `groups/<g>/recipes/<slug>`
 * and nothing else (a marker is ours, but it is a file anyone could have edited).
 */
export function mediaDirOf(folder: DataFolder, rel: string): { dir: string; group: string } | null {
  const dir = path.resolve(folder.root, rel);
  const parts = path.relative(folder.root, dir).split(path.sep);
  const ok = parts.length === 4 && parts[0] === "groups" && parts[2] === "recipes";
  return ok ? { dir, group: parts[1] } : null;
}
