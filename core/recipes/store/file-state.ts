/**
 * Reading one recipe file together with the fingerprint the store compares before every write
 * (ARCHITECTURE §3 invariant 4: size, mtime, hash).
 */
import { createHash } from "node:crypto";
import { lstat, open, readdir, stat } from "node:fs/promises";
import { errnoCode } from "../../storage/atomic-write.js";
import { isSafeSlug, type DataFolder } from "../../storage/data-folder.js";

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

export function hashText(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
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
    return { text: bytes.toString("utf8"), size: bytes.length, mtimeMs: st.mtimeMs, hash: hashText(bytes) };
  } finally {
    await handle.close();
  }
}

/** True when the file on disk is no longer the version described by `known` (null: "must not exist"). */
export function differs(known: FileFingerprint | null, disk: FileFingerprint | null): boolean {
  if (known === null || disk === null) return known !== disk;
  // A touch or a checkout of identical bytes changes mtime only; refusing then would be a false 409.
  return known.size !== disk.size || known.hash !== disk.hash;
}

export function fingerprintOf(state: FileState): FileFingerprint {
  return { size: state.size, mtimeMs: state.mtimeMs, hash: state.hash };
}

/** Every `groups/<g>/recipes/*.md` (or one group's). A folder vanishing meanwhile is skipped. */
export async function listRecipeFiles(folder: DataFolder, onlyGroup?: string): Promise<Array<{ groupSlug: string; slug: string }>> {
  const groups = onlyGroup !== undefined ? [onlyGroup] : (await listNames(folder.groupsDir, "dir")).filter(isSafeSlug);
  const out: Array<{ groupSlug: string; slug: string }> = [];
  for (const groupSlug of groups) {
    for (const name of await listNames(folder.recipesDir(groupSlug), "file")) {
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
    return entries.filter((d) => !d.name.startsWith(".") && (kind === "dir" ? d.isDirectory() : d.isFile())).map((d) => d.name);
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
