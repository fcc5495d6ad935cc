/** Sizes of folders on disk, and Mealie's way of showing them ("12.3 MB"). */
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Bytes used by the files under `dir` (0 when it does not exist). Symbolic links are not followed,
 * so a link out of the data folder is never walked; `skip` names entries to leave out (".git").
 */
export async function folderSize(dir: string, skip: ReadonlySet<string> = new Set()): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (skip.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderSize(p);
    else if (e.isFile()) {
      try {
        total += (await lstat(p)).size;
      } catch {
        // removed while we walked: it no longer counts
      }
    }
  }
  return total;
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
