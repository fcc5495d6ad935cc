/** Sizes of folders on disk, and Mealie's way of showing them ("12.3 MB"). */
import { lstat, readdir } from "node:fs/promises";
import { join, sep } from "node:path";
import { lstatManyOnDiskThread } from "../storage/disk-thread.js";
import { mapLimit } from "../util/map-limit.js";

const NOTHING: ReadonlySet<string> = new Set();
/** Below this many files, the disk thread's round trip costs more than it saves. */
const ON_THREAD_FROM = 64;

/**
 * The files under `dir` (none when it does not exist), walking its folders. Symbolic links are not
 * followed, so a link out of the data folder is never walked; `skip` names entries of `dir` itself to
 * leave out (".git").
 */
export async function filesUnder(dir: string, skip: ReadonlySet<string> = NOTHING): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, leaveOut: ReadonlySet<string>): Promise<void> => {
    let entries;
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    const folders: string[] = [];
    for (const e of entries) {
      if (leaveOut.has(e.name)) continue;
      const p = join(at, e.name);
      if (e.isDirectory()) folders.push(p);
      else if (e.isFile()) out.push(p);
    }
    // A recipes folder may hold a media folder per recipe: read several at once, not one after another.
    await mapLimit(folders, 8, (f) => walk(f, NOTHING));
  };
  await walk(dir, skip);
  return out;
}

/**
 * Each file's size in bytes; 0 for one removed (or no longer a regular file) since it was listed.
 * Stat'ed in one call to the disk thread: one awaited `lstat` after another took 2 s for the 50,000
 * files of a large folder (decision 0197).
 */
async function sizesOf(paths: string[]): Promise<number[]> {
  const stats = paths.length >= ON_THREAD_FROM ? await lstatManyOnDiskThread(paths) : null;
  if (stats) return paths.map((_, i) => Math.max(0, stats[2 * i]));
  return mapLimit(paths, 16, async (p) => {
    try {
      const st = await lstat(p);
      return st.isFile() ? st.size : 0;
    } catch {
      return 0;
    }
  });
}

/** Bytes used by the files under `dir` (see filesUnder). */
export async function folderSize(dir: string, skip: ReadonlySet<string> = NOTHING): Promise<number> {
  return (await folderSizes(dir, {}, skip)).total;
}

/**
 * Bytes used under `dir` (see filesUnder), and by the files inside each named set of its folders, from
 * one walk: the maintenance page shows the folder's size and its parts' sizes together.
 */
export async function folderSizes<K extends string>(
  dir: string,
  parts: Record<K, readonly string[]>,
  skip: ReadonlySet<string> = NOTHING,
): Promise<{ total: number; parts: Record<K, number> }> {
  const files = await filesUnder(dir, skip);
  const sizes = await sizesOf(files);
  const names = Object.keys(parts) as K[];
  const prefixes = names.map((k) => parts[k].map((folder) => folder + sep));
  const sums = names.map(() => 0);
  let total = 0;
  for (let i = 0; i < files.length; i++) {
    total += sizes[i];
    for (let k = 0; k < names.length; k++)
      if (prefixes[k].some((p) => files[i].startsWith(p))) sums[k] += sizes[i];
  }
  return { total, parts: Object.fromEntries(names.map((k, i) => [k, sums[i]])) as Record<K, number> };
}

/** "0 bytes", "512 bytes", "1.5 kB", "12.3 MB", "2.0 GB": decimal units, one decimal, as Mealie shows. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = "";
  for (const u of units) {
    value /= 1000;
    unit = u;
    if (value < 1000) break;
  }
  return `${value.toFixed(1)} ${unit}`;
}
