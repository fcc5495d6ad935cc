/**
 * Reading one recipe file together with the fingerprint the store compares before every write
 * (ARCHITECTURE §3 invariant 4: size, mtime, hash).
 */
import { isUtf8 } from "node:buffer";
import { hash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { lstat, open, readdir, stat } from "node:fs/promises";
import { errnoCode, writeFileAtomic } from "../../storage/atomic-write.js";
import { ConflictError } from "../../errors.js";
import { isSafeSlug, ReplacedFolderError, type DataFolder } from "../../storage/data-folder.js";

export interface FileFingerprint {
  size: number;
  mtimeMs: number;
  /** sha256 of the bytes, hex. The hash decides "changed"; size and mtime are recorded for caches. */
  hash: string;
}

export interface FileState extends FileFingerprint {
  text: string;
}

/**
 * A recipe is a page of text; anything much larger is not one (or is hostile) and is reported as
 * broken instead of being held in memory.
 */
export const MAX_RECIPE_FILE_BYTES = 4 * 1024 * 1024;

export class FileTooLargeError extends Error {
  constructor(readonly size: number) {
    super(`file is ${size} bytes; a recipe file may be at most ${MAX_RECIPE_FILE_BYTES} bytes`);
  }
}

/**
 * A recipe file must be UTF-8 text. Decoding anything else replaces bytes with U+FFFD, and writing
 * an id back would then destroy the original (a UTF-16 or binary file saved as `.md`), so such a
 * file is reported like one that does not parse and never written. NUL is refused too: it is valid
 * UTF-8 but no text editor writes it, and UTF-16 without a byte-order mark is full of them.
 */
export class NotTextError extends Error {
  constructor(why: string) {
    super(`file is not UTF-8 text (${why}); convert it to UTF-8 by hand — it will not be written until then`);
  }
}

function decodeText(bytes: Buffer): string {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    throw new NotTextError("it starts with a UTF-16 byte-order mark");
  if (!isUtf8(bytes)) throw new NotTextError("it holds bytes that are not valid UTF-8");
  if (bytes.includes(0)) throw new NotTextError("it holds NUL bytes");
  return bytes.toString("utf8");
}

export function hashText(text: string | Uint8Array): string {
  // The one-shot form: half the cost of createHash() per small file, which shows at a cold start.
  return hash("sha256", text, "hex");
}

/** Codes that mean "the file is not there (any more)": deleted or renamed between listing and reading. */
function isGone(e: unknown): boolean {
  const code = errnoCode(e);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Read a recipe file and its fingerprint, or null when it does not exist or is not a regular file.
 * Symlinks are not followed: a link named `x.md` could otherwise expose a file outside the data
 * folder through the API (invariant 5). Size and mtime come from the open handle, so they describe
 * the bytes actually read even when the file is replaced while we read it.
 */
export async function readFileState(path: string): Promise<FileState | null> {
  try {
    const ls = await lstat(path);
    if (!ls.isFile()) return null;
  } catch (e) {
    if (isGone(e)) return null;
    throw e;
  }
  let handle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    if (isGone(e)) return null;
    throw e;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    if (st.size > MAX_RECIPE_FILE_BYTES) throw new FileTooLargeError(st.size);
    const bytes = await handle.readFile();
    return { text: decodeText(bytes), size: bytes.length, mtimeMs: st.mtimeMs, hash: hashText(bytes) };
  } finally {
    await handle.close();
  }
}

/**
 * readFileState without the event loop, for the scan at open: thousands of small files read from the
 * page cache one after the other cost a fraction of the thread-pool round trips of the async calls.
 * O_NOFOLLOW refuses a symlink in the same step that opens the file (no lstat-then-open race), and
 * O_NONBLOCK keeps a FIFO named `x.md` from blocking the open; it is then refused as not a file.
 */
export function readFileStateSync(path: string): FileState | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = errnoCode(e);
    if (isGone(e) || code === "ELOOP" || code === "EMLINK") return null;
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > MAX_RECIPE_FILE_BYTES) throw new FileTooLargeError(st.size);
    // Read to the end, not just st.size bytes: the file may grow between the fstat and the read.
    let buf = Buffer.allocUnsafe(Math.max(st.size, 1024) + 1);
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (len > MAX_RECIPE_FILE_BYTES) throw new FileTooLargeError(len);
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const asked = buf.length - len;
      const n = readSync(fd, buf, len, asked, null);
      if (n === 0) break;
      len += n;
      // Exactly the size the fstat gave, and the read stopped short of the room it had: the end of the
      // file, without a second call to be told so (about a fifth of the reading at a cold start).
      if (len === st.size && n < asked) break;
    }
    const bytes = buf.subarray(0, len);
    return { text: decodeText(bytes), size: len, mtimeMs: st.mtimeMs, hash: hashText(bytes) };
  } finally {
    closeSync(fd);
  }
}

/** True when the file on disk is no longer the version described by `known` (null: "must not exist"). */
export function differs(known: FileFingerprint | null, disk: FileFingerprint | null): boolean {
  if (known === null || disk === null) return known !== disk;
  // A touch or a checkout of identical bytes changes mtime only; refusing then would be a false 409.
  return known.size !== disk.size || known.hash !== disk.hash;
}

export function fingerprintOf(state: FileFingerprint): FileFingerprint {
  return { size: state.size, mtimeMs: state.mtimeMs, hash: state.hash };
}

/** The group folders with a valid slug. */
export async function listRecipeGroups(folder: DataFolder): Promise<string[]> {
  return (await listNames(folder.groupsDir, "dir")).filter(isSafeSlug);
}

/**
 * A group's `recipes/`, or null when it or a folder above it is not a real folder (a symlink put in its
 * place): nothing is read through it, the recipes are as good as gone (decision 0263).
 */
export function recipesDirOrNull(folder: DataFolder, groupSlug: string): string | null {
  try {
    return folder.recipesDir(groupSlug);
  } catch (e) {
    if (e instanceof ReplacedFolderError) return null;
    throw e;
  }
}

/** Every `groups/<g>/recipes/*.md` (or one group's). A folder vanishing meanwhile is skipped. */
export async function listRecipeFiles(
  folder: DataFolder,
  onlyGroup?: string,
): Promise<Array<{ groupSlug: string; slug: string }>> {
  const groups =
    onlyGroup !== undefined ? [onlyGroup] : (await listNames(folder.groupsDir, "dir")).filter(isSafeSlug);
  const out: Array<{ groupSlug: string; slug: string }> = [];
  for (const groupSlug of groups) {
    const dir = recipesDirOrNull(folder, groupSlug);
    if (dir === null) continue;
    for (const name of await listNames(dir, "file")) {
      if (name.endsWith(".md")) out.push({ groupSlug, slug: name.slice(0, -3) });
    }
  }
  return out;
}

/** Names in a folder of one kind, dot names excluded (.git, editor temp files); [] if it is gone. */
async function listNames(dir: string, kind: "dir" | "file"): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    // Dirent types come from the listing itself (no stat): symlinks are neither, so they are skipped.
    return entries
      .filter((d) => !d.name.startsWith(".") && (kind === "dir" ? d.isDirectory() : d.isFile()))
      .map((d) => d.name);
  } catch (e) {
    if (isGone(e)) return [];
    throw e;
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (e) {
    if (isGone(e)) return false;
    throw e;
  }
}

/**
 * The fingerprint on disk for a 409 check: a file too large to read still has a size that differs.
 * Read synchronously, as the steps of a save are (a small file from the page cache; replace-file.ts).
 */
export function diskFingerprintSync(path: string): FileFingerprint | null {
  try {
    return readFileStateSync(path);
  } catch (e) {
    if (e instanceof FileTooLargeError) return { size: e.size, mtimeMs: 0, hash: "" };
    // Not text any more: certainly not the version indexed.
    if (e instanceof NotTextError) return { size: -1, mtimeMs: 0, hash: "" };
    throw e;
  }
}

/** Write a recipe file atomically; returns the fingerprint of what was written. */
export async function commitFile(
  path: string,
  text: string,
  tmpDir: string,
  exclusive: boolean,
): Promise<FileFingerprint> {
  await writeFileAtomic(path, text, { tmpDir, exclusive });
  const st = statSync(path);
  return { size: Buffer.byteLength(text), mtimeMs: st.mtimeMs, hash: hashText(text) };
}

/**
 * A save that found its file changed by hand since the index read it. The index holds the disk's
 * version by the time this is thrown, so a change that can be made again on top of it may be
 * (core/recipes/after-hand-edit.ts, decision 0282).
 */
export class ChangedOnDiskError extends ConflictError {}

export function changedOnDisk(groupSlug: string, slug: string): ChangedOnDiskError {
  return new ChangedOnDiskError(
    `The recipe file groups/${groupSlug}/recipes/${slug}.md changed on disk since it was read; the version on disk has been loaded. Reload the recipe and try again`,
  );
}
