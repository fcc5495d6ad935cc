import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diskThreadCalls } from "../storage/disk-thread.js";
import { filesUnder, folderSize, folderSizes, formatBytes } from "./disk.js";

let dir: string;
let outside: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-disk-"));
  outside = await mkdtemp(path.join(os.tmpdir(), "larder-disk-outside-"));
  await writeFile(path.join(outside, "big.bin"), Buffer.alloc(100_000));
  // Two groups' recipes (enough files for the disk thread), a media folder, a link out, a skipped .git.
  for (const g of ["home", "club"]) {
    await mkdir(path.join(dir, "groups", g, "recipes", "soup"), { recursive: true });
    for (let i = 0; i < 40; i++)
      await writeFile(path.join(dir, "groups", g, "recipes", `r${i}.md`), "x".repeat(10));
    await writeFile(path.join(dir, "groups", g, "recipes", "soup", "photo.jpg"), Buffer.alloc(1000));
    await writeFile(path.join(dir, "groups", g, "foods.json"), "y".repeat(7));
  }
  await symlink(path.join(outside, "big.bin"), path.join(dir, "groups", "home", "link.bin"));
  await symlink(outside, path.join(dir, "groups", "home", "linked-folder"));
  await mkdir(path.join(dir, ".git"));
  await writeFile(path.join(dir, ".git", "pack"), Buffer.alloc(5000));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe("folder sizes", () => {
  it("adds up the files under a folder, following no link and leaving out what it is told to", async () => {
    const groups = path.join(dir, "groups");
    const before = diskThreadCalls();
    // 2 × (40 recipes of 10 bytes, a 1,000-byte photo, 7 bytes of foods)
    expect(await folderSize(groups)).toBe(2 * (400 + 1000 + 7));
    expect(diskThreadCalls()).toBeGreaterThan(before);
    expect(await folderSize(dir, new Set([".git"]))).toBe(2 * 1407);
    expect(await folderSize(dir)).toBe(2 * 1407 + 5000);
    expect(await folderSize(path.join(dir, "no-such-folder"))).toBe(0);
  });

  it("gives a folder's total and the sizes of named sets of its folders from one walk", async () => {
    const groups = path.join(dir, "groups");
    const recipes = ["home", "club"].map((g) => path.join(groups, g, "recipes"));
    expect(
      await folderSizes(
        dir,
        { recipes, home: [path.join(groups, "home")], git: [path.join(dir, ".git")] },
        new Set([".git"]),
      ),
    ).toEqual({ total: 2 * 1407, parts: { recipes: 2 * 1400, home: 1407, git: 0 } });
    // A name that only starts like a recipes folder is not inside it.
    expect(await folderSizes(groups, { near: [path.join(groups, "home", "recipe")] })).toEqual({
      total: 2 * 1407,
      parts: { near: 0 },
    });
  });

  it("sizes a few files without the disk thread, and counts a file removed meanwhile as nothing", async () => {
    const small = path.join(dir, "groups", "club");
    const files = await filesUnder(small);
    expect(files.length).toBeLessThan(64);
    await rm(path.join(small, "foods.json"));
    const before = diskThreadCalls();
    expect(await folderSize(small)).toBe(1400);
    expect(diskThreadCalls()).toBe(before);
  });

  it("shows sizes as Mealie does", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(12_345_678)).toBe("12.3 MB");
  });
});
