/**
 * An import writes the new recipe's image into its media folder just before the recipe file, the
 * commit point (import-service.ts). A process killed between the two left a media folder without its
 * recipe, which `larder check` then reports as an orphan forever. So a new media folder is announced
 * first by a marker in `.larder/tmp` naming it; the marker goes once the recipe file is written (or
 * the folder removed). At open, a marker whose writer is gone means the import died there: its folder
 * is removed unless the recipe file exists after all (the kill came between the file and the marker).
 *
 * The marker is not fsynced: a killed process's writes survive in the page cache. After a power cut,
 * at worst the orphan is back, as before.
 */
import { readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { errnoCode } from "../storage/atomic-write.js";
import type { DataFolder } from "../storage/data-folder.js";
import { isProcessAlive } from "../storage/process-alive.js";
import { exists } from "../recipes/store/file-state.js";

const PREFIX = "import-media.";
const SUFFIX = ".pending";
/** A marker this old is stale whoever wrote it: one import does not take an hour per recipe. */
const MAX_AGE_MS = 60 * 60 * 1000;

export interface PendingMedia {
  /** The recipe file is written, or the folder removed: forget the folder. */
  done(): Promise<void>;
}

/** Announce that `mediaDir` is about to be made for a recipe whose file is not written yet. */
export async function markPendingMedia(folder: DataFolder, mediaDir: string): Promise<PendingMedia> {
  const marker = path.join(
    folder.tmpDir,
    `${PREFIX}${process.pid}.${randomBytes(6).toString("hex")}${SUFFIX}`,
  );
  await writeFile(marker, path.relative(folder.root, mediaDir), { mode: 0o600 });
  return { done: () => unlink(marker).catch(() => undefined) };
}

/**
 * Remove the media folders of imports a dead process left half done (see above); returns them,
 * relative to the folder. Markers of a live process are left alone.
 */
export async function removeAbandonedMedia(folder: DataFolder, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder.tmpDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) continue;
    const marker = path.join(folder.tmpDir, name);
    try {
      const pid = Number(name.slice(PREFIX.length).split(".")[0]);
      const old = now - (await stat(marker)).mtimeMs > MAX_AGE_MS;
      if (!old && (pid === process.pid || isProcessAlive(pid))) continue;
      const rel = await readFile(marker, "utf8");
      const dir = path.resolve(folder.root, rel);
      // Only a recipe's media folder, inside this folder (the marker is ours, but it is a file).
      const parts = path.relative(folder.root, dir).split(path.sep);
      const isMediaDir = parts.length === 4 && parts[0] === "groups" && parts[2] === "recipes";
      if (isMediaDir && !(await exists(`${dir}.md`))) {
        await rm(dir, { recursive: true, force: true });
        removed.push(rel);
      }
      await unlink(marker);
    } catch {
      // Raced with another opener, or the marker is unreadable: the next start looks again.
    }
  }
  return removed;
}
