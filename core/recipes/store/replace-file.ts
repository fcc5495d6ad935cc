/**
 * Replacing or removing a recipe file only if it is still the version the store read (ARCHITECTURE §3
 * invariant 4), with no window in which an editor's save is silently overwritten.
 *
 * Comparing and then renaming leaves a gap: an editor saving between the two (in place, or by
 * renaming its own temp file over ours) lost its edit in about 4 saves in 100 when they raced an
 * API PATCH. POSIX has no compare-and-swap on a path, so the swap is built from steps each of which
 * is atomic and leaves evidence of a concurrent save:
 *
 * 1. the new content is written and fsynced to a temp file;
 * 2. the current file is renamed aside (a dot name in the same folder): exactly the inode that was in
 *    place moves, whatever was saved before;
 * 3. what was moved aside is compared with the version read — a save that landed before step 2 is
 *    in it; if it differs, it goes back and the write is refused;
 * 4. the temp file is linked into place with link(2), which fails if an editor created the file
 *    again since step 2 (an in-place save opening the path, or a rename over it) — the editor's file
 *    wins and the write is refused;
 * 5. the aside file is compared once more: an editor that had the file open before step 2 and wrote
 *    after step 3 wrote into it; its version is put back over ours and the write is refused.
 *
 * A crash between steps 2 and 4 leaves the old file under its aside name, which the next open puts
 * back (recoverAsideFiles), so the folder never loses a recipe.
 *
 * The steps run synchronously but for the fsyncs (the temp file's and the folder's): renames, links
 * and reads of a recipe file only touch the page cache and the folder, and as asynchronous calls a
 * save waited for about two dozen turns of the event loop, milliseconds each under load (decision 0179).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, linkSync, renameSync, statSync, unlinkSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { errnoCode, fsyncDir, removeQuietly, writeSyncedTemp } from "../../storage/atomic-write.js";
import { isProcessAlive } from "../../storage/process-alive.js";
import type { Logger } from "../../log/logger.js";
import { differs, diskFingerprintSync, hashText, type FileFingerprint } from "./file-state.js";

const ASIDE_MARK = ".larder-aside-";

function asideName(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}${ASIDE_MARK}${process.pid}-${randomBytes(4).toString("hex")}`,
  );
}

/** The outcome of a guarded write: the new fingerprint, or "changed" when the disk was not the version read. */
export type Guarded<T> = T | "changed";

/** Put an aside file back at `target` unless something new is there already (then that one wins). */
function putBack(aside: string, target: string): void {
  try {
    linkSync(aside, target);
  } catch (e) {
    if (errnoCode(e) !== "EEXIST") throw e;
  }
  unlinkSync(aside);
}

/** Move `target` aside if it is still `known`; "changed" (and nothing moved) otherwise. */
function takeAside(target: string, known: FileFingerprint): Guarded<string> {
  const aside = asideName(target);
  try {
    renameSync(target, aside);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return "changed";
    throw e;
  }
  if (differs(known, diskFingerprintSync(aside))) {
    putBack(aside, target);
    return "changed";
  }
  return aside;
}

/**
 * The new file takes the permissions (and, for a server run as root, the owner) of the one it
 * replaces: a `chmod 600` or a file owned by the person who edits the folder is a choice made by
 * hand, which an API save must not undo (world-readable again, or owned by root so that the next
 * in-place save in an editor fails).
 */
function keepAccess(from: string, to: string): void {
  const st = statSync(from);
  const mode = st.mode & 0o7777;
  if (mode !== 0o644) chmodSync(to, mode);
  if (process.getuid?.() !== 0 || (st.uid === 0 && st.gid === 0)) return;
  try {
    chownSync(to, st.uid, st.gid);
  } catch {
    // A file system without owners (FAT, some network mounts): the mode is all it keeps.
  }
}

/** Replace `target` with `text` if the file there is still `known` (see the steps above). */
export async function replaceIfUnchanged(
  target: string,
  text: string,
  tmpDir: string,
  known: FileFingerprint,
): Promise<Guarded<FileFingerprint>> {
  const tmp = await writeSyncedTemp(tmpDir, target, text, 0o644);
  try {
    const aside = takeAside(target, known);
    if (aside === "changed") return "changed";
    keepAccess(aside, tmp);
    try {
      linkSync(tmp, target);
    } catch (e) {
      if (errnoCode(e) === "EEXIST") {
        // An editor saved a new file in the gap: it is newer than the version we moved aside.
        unlinkSync(aside);
        return "changed";
      }
      putBack(aside, target);
      throw e;
    }
    if (differs(known, diskFingerprintSync(aside))) {
      // Written into the old inode after we compared it: that save is newer than ours.
      renameSync(aside, target);
      return "changed";
    }
    unlinkSync(aside);
    await fsyncDir(path.dirname(target));
    const st = statSync(target, { throwIfNoEntry: false });
    return { size: Buffer.byteLength(text), mtimeMs: st?.mtimeMs ?? Date.now(), hash: hashText(text) };
  } finally {
    removeQuietly(tmp);
  }
}

/** Delete `target` if it is still `known`; a file already gone counts as deleted. */
export async function removeIfUnchanged(target: string, known: FileFingerprint): Promise<Guarded<void>> {
  const aside = asideName(target);
  try {
    renameSync(target, aside);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return;
    throw e;
  }
  if (differs(known, diskFingerprintSync(aside))) {
    putBack(aside, target);
    return "changed";
  }
  unlinkSync(aside);
}

/**
 * Move `from` to `to` (a rename by the API) if `from` is still `known` and `to` does not exist.
 * "changed" when `from` was edited meanwhile (it stays where it was) or `to` appeared.
 */
export async function moveIfUnchanged(
  from: string,
  to: string,
  known: FileFingerprint,
): Promise<Guarded<void>> {
  const aside = takeAside(from, known);
  if (aside === "changed") return "changed";
  try {
    linkSync(aside, to);
  } catch (e) {
    putBack(aside, from);
    if (errnoCode(e) === "EEXIST") return "changed";
    throw e;
  }
  if (differs(known, diskFingerprintSync(aside))) {
    // Saved into the old file while it moved: the save wins, under its old name.
    unlinkSync(to);
    putBack(aside, from);
    return "changed";
  }
  unlinkSync(aside);
  await fsyncDir(path.dirname(to));
}

/**
 * After a crash between moving a file aside and putting the new one in place: put each aside file
 * back where it was, unless a file is there again (then the aside copy is an older version and goes).
 */
export async function recoverAsideFiles(dir: string, log: Logger, heldMs = ASIDE_HELD_MS): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT" || errnoCode(e) === "ENOTDIR") return;
    throw e;
  }
  for (const name of names) {
    const at = name.indexOf(ASIDE_MARK);
    if (!name.startsWith(".") || at < 0) continue;
    const target = path.join(dir, name.slice(1, at));
    const aside = path.join(dir, name);
    // Another live process (a CLI command beside the server) may be mid-write: only a dead writer's
    // file is recovered (a killed one its parent has not reaped included, decision 0206), or one no
    // write could still be holding (its process number may be another program's since a reboot).
    const pid = Number(name.slice(at + ASIDE_MARK.length).split("-")[0]);
    if (pid !== process.pid && isProcessAlive(pid) && !heldLonger(aside, heldMs)) continue;
    try {
      putBack(aside, target);
      log.warn(`recovered ${target} from an interrupted write`);
    } catch (e) {
      log.warn(`could not recover ${aside}:`, e);
    }
  }
}

/**
 * A write holds its aside file for milliseconds (the steps between moving the file aside and linking the
 * new one in touch only the page cache); one older than this was left by a process that is gone.
 */
export const ASIDE_HELD_MS = 10 * 60_000;

/** Moved aside longer ago than `ms` (a rename sets the change time, so ctime is when it was). */
function heldLonger(aside: string, ms: number): boolean {
  try {
    return Date.now() - statSync(aside).ctimeMs > ms;
  } catch {
    return false;
  }
}
