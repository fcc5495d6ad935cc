/**
 * `mkdir -p` one level at a time. Node's recursive mkdir retries for ever when a parent exists but
 * refuses to hold a new folder with ENOENT (a path under /proc): `larder init /proc/x/y` spun at
 * full CPU instead of failing.
 */
import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { errnoCode } from "./atomic-write.js";

export async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let cur = resolve(dir); ;) {
    let isDir: boolean;
    try {
      isDir = (await stat(cur)).isDirectory();
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
      missing.push(cur);
      const up = dirname(cur);
      if (up === cur) break;
      cur = up;
      continue;
    }
    if (!isDir)
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR" });
    break;
  }
  for (const d of missing.reverse()) {
    try {
      await mkdir(d);
    } catch (e) {
      if (errnoCode(e) !== "EEXIST") throw e;
    }
  }
}
