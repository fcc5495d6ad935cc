/**
 * A backup that passes every check a restore makes before the swap (a complete zip, each document
 * JSON of the right shape, an administrator, a group) and yet cannot be opened: where the group's
 * `activity/` folder belongs it holds a file, and opening the folder lists that folder.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { makeZip } from "./zip-writer.js";

export async function unopenableBackup(dataDir: string): Promise<Buffer> {
  const files: Array<{ name: string; data: Buffer }> = [];
  for (const name of ["larder.json", "users.json", "groups/home/group.json"])
    files.push({ name, data: await readFile(join(dataDir, ...name.split("/"))) });
  files.push({ name: "groups/home/activity", data: Buffer.from("not a folder\n") });
  const manifest = {
    format: "larder-backup",
    formatVersion: 1,
    larderVersion: "0.1.0",
    createdAt: new Date().toISOString(),
    includesSecrets: false,
    counts: { files: files.length, recipes: 0, groups: 1 },
    files: Object.fromEntries(
      files.map((f) => [
        f.name,
        { size: f.data.length, sha256: createHash("sha256").update(f.data).digest("hex") },
      ]),
    ),
  };
  return makeZip([...files, { name: "larder-backup.json", data: JSON.stringify(manifest) }]);
}
