/**
 * JSON Lines files that only grow: one record per line, appended and fsynced. A process killed
 * mid-append can leave a torn last line; the next append starts on a fresh line, and readers skip a
 * line that does not parse, so one torn write never hides the lines after it.
 */
import { mkdir, open, readFile, readdir } from "node:fs/promises";
import { dirname } from "node:path";
import { errnoCode, fsyncDir } from "../storage/atomic-write.js";

/** Append lines (without their newlines) to `path` in one write and one fsync. */
export async function appendLines(path: string, lines: readonly string[]): Promise<void> {
  if (lines.some((l) => l.includes("\n")))
    throw new Error("appendLines: a JSON line must not contain a newline");
  const line = lines.join("\n");
  await mkdir(dirname(path), { recursive: true });
  const fh = await open(path, "a+");
  let created = false;
  try {
    const { size } = await fh.stat();
    created = size === 0;
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      await fh.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
    await fh.appendFile(`${prefix}${line}\n`, "utf8");
    await fh.sync();
  } finally {
    await fh.close();
  }
  // A new file's directory entry must be durable too, or a crash could lose the whole month.
  if (created) await fsyncDir(dirname(path)).catch(() => undefined);
}

/** The lines of a file (empty ones dropped); a missing file has none. */
export async function readLines(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
  return text.split("\n").filter((l) => l.trim() !== "");
}

/** `*.jsonl` names in a folder, sorted (month files sort chronologically by name). */
export async function listJsonl(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => /^\d{4}-\d{2}\.jsonl$/.test(n)).sort();
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return [];
    throw e;
  }
}
