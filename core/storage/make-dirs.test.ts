import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDirs } from "./make-dirs.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-mkdirs-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("makeDirs", () => {
  it("makes every missing level, and is content when the folder exists", async () => {
    const deep = join(dir, "a", "b", "c");
    await makeDirs(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await makeDirs(deep);
  });

  it("fails on a file in the way", async () => {
    await writeFile(join(dir, "file"), "x");
    await expect(makeDirs(join(dir, "file", "sub"))).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it.runIf(process.platform === "linux")(
    "fails, rather than retrying for ever, under a parent that refuses new folders",
    async () => {
      await expect(makeDirs("/proc/larder-nope/x")).rejects.toMatchObject({ code: "ENOENT" });
    },
  );
});
