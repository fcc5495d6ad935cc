/**
 * Paths under the data folder that a request names (an asset file name, a download token's path) are
 * resolved here and nowhere else. A name is one plain segment; every folder from the data folder down
 * must be a real folder, not a symlink, and the final real path must stay inside: a media folder synced
 * with git can carry symlinks (git stores them), and one planted there must never serve or receive a
 * file outside the folder.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, type FileHandle } from "node:fs/promises";
import type { Stats } from "node:fs";
import path from "node:path";
import { BadRequestError, NotFoundError } from "../errors.js";
import { errnoCode } from "../storage/atomic-write.js";

const MAX_SEGMENT = 200;

/** True when `name` is usable as one file name: no separators, no dot names, no NUL, not too long. */
export function isPlainFileName(name: string): boolean {
  return (
    typeof name === "string" &&
    name.length > 0 &&
    name.length <= MAX_SEGMENT &&
    !name.startsWith(".") &&
    !/[/\\\0]/.test(name) &&
    !name.includes("..") &&
    !path.isAbsolute(name) &&
    // Windows drive letters and device names have no business in a Larder file name either.
    !/^[a-z]:/i.test(name)
  );
}

/** Throws 400 unless `name` is a plain file name (see isPlainFileName). */
export function assertPlainFileName(name: string, what = "file name"): string {
  if (!isPlainFileName(name)) throw new BadRequestError(`Invalid ${what}`);
  return name;
}

/** True when `abs` is `root` itself or below it (lexically; the real-path check is realDirInside's). */
export function containedIn(root: string, abs: string): boolean {
  const back = path.relative(root, abs);
  return back === "" || (!back.startsWith("..") && !path.isAbsolute(back));
}

/**
 * THE way to build a path from values that came from a file, a request or a token: each value must be
 * one plain segment (isPlainFileName), and the joined result must stay inside `root`. Throws 400
 * (or `onUnsafe()`) otherwise. Fixed segments ("groups", "recipes") pass the same check.
 */
export function pathInside(
  root: string,
  segments: readonly string[],
  onUnsafe: () => Error = () => new BadRequestError("Invalid path"),
): string {
  for (const s of segments) if (!isPlainFileName(s)) throw onUnsafe();
  const abs = path.resolve(root, ...segments);
  if (abs === path.resolve(root) || !containedIn(root, abs)) throw onUnsafe();
  return abs;
}

const HEADER_SAFE = /[^A-Za-z0-9._~+=-]/g;

/**
 * A value for an HTTP header (an ETag, a file name in Content-Disposition), built only from safe
 * characters: anything else, CR and LF first, becomes `_`. Node refuses a header with CR/LF by
 * throwing, which turned a hand-written key into a 500; quotes would end the quoted string early.
 */
export function headerSafe(value: string, max = 200): string {
  return String(value).slice(0, max).replace(HEADER_SAFE, "_");
}

/**
 * A value taken from a file (an image key) used as one cache folder name: kept when it is short and
 * plain, else replaced by a hash of itself, so the same key always names the same folder and no key
 * can name a folder outside.
 */
export function cacheSegment(value: string): string {
  if (/^[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
  return `h${createHash("sha256").update(value).digest("hex").slice(0, 32)}`;
}

/**
 * Split a path relative to `root` into its segments, refusing absolute paths, `..`, backslashes, NUL
 * and empty segments. Returns the absolute path.
 */
export function insideRoot(root: string, rel: string): { abs: string; segments: string[] } {
  if (
    typeof rel !== "string" ||
    rel.length === 0 ||
    rel.includes("\0") ||
    rel.includes("\\") ||
    path.isAbsolute(rel) ||
    /^[a-z]:/i.test(rel)
  ) {
    throw new BadRequestError("Invalid path");
  }
  const segments = rel.split("/");
  if (segments.some((s) => s === "" || s === "." || s === "..")) throw new BadRequestError("Invalid path");
  const abs = path.resolve(root, ...segments);
  if (!containedIn(root, abs)) throw new BadRequestError("Invalid path");
  return { abs, segments };
}

/**
 * Make sure every folder from `root` down to `dir` is a real folder (never a symlink), creating
 * missing ones when `create` is set. A missing folder without `create` is a 404.
 */
export async function realDirInside(root: string, dir: string, create: boolean): Promise<string> {
  if (!containedIn(root, dir)) throw new BadRequestError("Invalid path");
  const rel = path.relative(root, dir);
  if (rel === "") return root;
  let cur = root;
  for (const seg of rel.split(path.sep)) {
    cur = path.join(cur, seg);
    let st;
    try {
      st = await lstat(cur);
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
      if (!create) throw new NotFoundError("File not found");
      await mkdir(cur).catch((err: unknown) => {
        if (errnoCode(err) !== "EEXIST") throw err;
      });
      st = await lstat(cur);
    }
    if (st.isSymbolicLink() || !st.isDirectory()) throw new NotFoundError("File not found");
  }
  await assertRealInside(root, cur);
  return cur;
}

/** The resolved real path of `p` must be inside the real path of `root`. */
async function assertRealInside(root: string, p: string): Promise<void> {
  const [realRoot, real] = await Promise.all([realpath(root), realpath(p)]);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw new NotFoundError("File not found");
}

export interface OpenedFile {
  data: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * Open a regular file `name` in folder `dir` (both under `root`) for reading, refusing symlinks
 * anywhere on the way. Missing or unsafe: 404 (the caller learns nothing about what exists outside).
 * The caller closes the handle.
 */
export async function openFileInside(
  root: string,
  dir: string,
  name: string,
): Promise<{ handle: FileHandle; size: number; mtimeMs: number }> {
  if (!isPlainFileName(name)) throw new NotFoundError("File not found");
  const folder = await realDirInside(root, dir, false);
  const file = path.join(folder, name);
  let handle: FileHandle;
  try {
    // O_NOFOLLOW: a symlink swapped in after the checks above still fails here.
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = errnoCode(e);
    if (code === "ENOENT" || code === "ELOOP" || code === "EISDIR" || code === "ENOTDIR")
      throw new NotFoundError("File not found");
    throw e;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new NotFoundError("File not found");
    await assertRealInside(root, file);
    return { handle, size: st.size, mtimeMs: st.mtimeMs };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** Read a whole file through openFileInside. */
export async function readFileInside(root: string, dir: string, name: string): Promise<OpenedFile> {
  const { handle, size, mtimeMs } = await openFileInside(root, dir, name);
  try {
    return { data: await handle.readFile(), size, mtimeMs };
  } finally {
    await handle.close();
  }
}

/** lstat that answers null for a missing file. */
export async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch (e) {
    if (errnoCode(e) === "ENOENT" || errnoCode(e) === "ENOTDIR") return null;
    throw e;
  }
}
