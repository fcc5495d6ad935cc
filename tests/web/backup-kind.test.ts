import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sniffBackup } from "../../core/backups/read-backup.js";
import { backupKind, zipEntryNames } from "../../web/app/lib/backup-kind.js";
import { makeZip, type ZipSpec } from "../support/zip-writer.js";

/** A zip as the browser's file picker hands it over. */
const asFile = (zip: Buffer) => new Blob([new Uint8Array(zip)]);

const ZIPS: Record<string, ZipSpec[]> = {
  larder: [
    { name: "larder-backup.json", data: "{}" },
    { name: "groups/home/recipes/soup.md", data: "# Soup" },
  ],
  mealie: [
    { name: "database.json", data: "{}" },
    { name: "data/recipes/1/images/original.webp", data: "x" },
  ],
  "mealie in a wrapper folder": [
    { name: "mealie_2024.10.01/database.json", data: "{}" },
    { name: "mealie_2024.10.01/data/recipes/1/images/original.webp", data: "x" },
  ],
  "database.json without data": [{ name: "database.json", data: "{}" }],
  "something else": [{ name: "notes.txt", data: "hello" }],
};

describe("a backup's kind, read in the browser before upload", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-backup-kind-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const [label, specs] of Object.entries(ZIPS))
    it(`agrees with the server's sniffing: ${label}`, async () => {
      const zip = makeZip(specs);
      const path = join(dir, `${label}.zip`);
      await writeFile(path, zip);
      const names = await zipEntryNames(asFile(zip));
      expect(names).toEqual(specs.map((s) => s.name));
      expect(backupKind(names ?? [])).toBe(await sniffBackup(path));
    });

  it("says a Mealie backup is one, so the page asks before uploading it", async () => {
    expect(backupKind((await zipEntryNames(asFile(makeZip(ZIPS.mealie)))) ?? [])).toBe("mealie");
  });

  it("cannot read a file that is no zip", async () => {
    await expect(zipEntryNames(new Blob(["not a zip at all"]))).resolves.toBeNull();
  });
});
