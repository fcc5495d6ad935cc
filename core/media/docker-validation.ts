/**
 * `GET /api/media/docker/validate.txt` (mealie-api-notes §4.15): Mealie's admin page writes a random
 * text into the data folder and reads it back through this public route, proving the server and the
 * front end see the same volume. Larder keeps that text in `.larder/docker-validation/validate.txt`,
 * created on first use; the admin check compares against the same function's result.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DataFolder } from "../storage/data-folder.js";
import { errnoCode, writeFileAtomic } from "../storage/atomic-write.js";

/** The validation text, created on first use. `renew` writes a fresh one (what the admin check does). */
export async function dockerValidationText(
  folder: DataFolder,
  opts: { renew?: boolean } = {},
): Promise<string> {
  const dir = join(folder.privateDir, "docker-validation");
  const file = join(dir, "validate.txt");
  if (!opts.renew) {
    try {
      return await readFile(file, "utf8");
    } catch (e) {
      if (errnoCode(e) !== "ENOENT") throw e;
    }
  }
  const text = randomBytes(16).toString("hex");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, text, { tmpDir: folder.tmpDir });
  return text;
}
