/**
 * A recipes zip whose temp file cannot be written (a full disk, a temp area replaced by a file): the
 * write stream fails before the zip is awaited. That rejection had no handler yet, so it escaped as an
 * unhandled rejection (the server's crash guard failed whichever request was current; `larder export`
 * died with a stack trace). It is the export's own error now, and nothing is left behind.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";
import { readZip } from "./test-support.js";
import { writeRecipesZip } from "./recipe-zip.js";

let s: ScratchLarder;
const escaped: unknown[] = [];
const record = (e: unknown) => escaped.push(e);

beforeAll(async () => {
  s = await openScratchLarder("recipe-zip");
  await s.larder.recipes.create(s.admin, { name: "Zipped Soup" });
  process.on("unhandledRejection", record);
});
afterAll(async () => {
  process.off("unhandledRejection", record);
  await s.close();
});
afterEach(async () => {
  // An unhandled rejection is reported after the turn it happened in.
  await new Promise((r) => setTimeout(r, 10));
  expect(escaped.splice(0)).toEqual([]);
});

const entries = () => s.larder.recipes.store.all();

describe("writeRecipesZip", () => {
  it("writes the recipes to the target", async () => {
    const target = join(s.base, "out.zip");
    const size = await writeRecipesZip(s.larder, entries(), target);
    expect(size).toBeGreaterThan(0);
    const names = readZip(await readFile(target)).map((e) => e.name);
    expect(names).toContain("recipes/zipped-soup/zipped-soup.md");
  });

  it("fails with the disk's error, not an unhandled rejection, when its temp file cannot be written", async () => {
    const tmp = s.larder.folder.tmpDir;
    await rm(tmp, { recursive: true, force: true });
    await writeFile(tmp, "not a folder");
    try {
      await expect(writeRecipesZip(s.larder, entries(), join(s.base, "never.zip"))).rejects.toMatchObject({
        code: "ENOTDIR",
      });
      expect((await readdir(s.base)).includes("never.zip")).toBe(false);
    } finally {
      await rm(tmp, { force: true });
      await mkdir(tmp, { recursive: true });
    }
  });
});
