import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataFolder, ensurePrivateDirs } from "../storage/data-folder.js";
import { markPendingMedia, removeAbandonedMedia } from "./pending-media.js";

let root: string;
let folder: DataFolder;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "larder-pending-"));
  folder = new DataFolder(root);
  await ensurePrivateDirs(folder);
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

async function mediaFolder(slug: string): Promise<string> {
  const dir = folder.recipeMediaDir("home", slug);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "original.webp"), "image");
  return dir;
}

/** A marker as a process `pid` would have left it. */
async function leftBy(pid: number, rel: string): Promise<void> {
  await writeFile(path.join(folder.tmpDir, `import-media.${pid}.0123456789ab.pending`), rel);
}

describe("media folders of imports killed before their recipe", () => {
  it("removes the folder a dead import announced when its recipe file was never written", async () => {
    const dir = await mediaFolder("soup");
    await leftBy(await deadPid(), "groups/home/recipes/soup");
    expect(await removeAbandonedMedia(folder)).toEqual(["groups/home/recipes/soup"]);
    expect(existsSync(dir)).toBe(false);
    expect(await readdir(folder.tmpDir)).toEqual([]);
  });

  it("keeps the folder when the recipe file was written before the kill, and drops the marker", async () => {
    const dir = await mediaFolder("stew");
    await writeFile(`${dir}.md`, "---\nname: Stew\n---\n");
    await leftBy(await deadPid(), "groups/home/recipes/stew");
    expect(await removeAbandonedMedia(folder)).toEqual([]);
    expect(existsSync(path.join(dir, "original.webp"))).toBe(true);
    expect(await readdir(folder.tmpDir)).toEqual([]);
  });

  it("leaves an import in progress alone: the marker of a live process", async () => {
    const dir = await mediaFolder("pie");
    const pending = await markPendingMedia(folder, dir);
    expect(await removeAbandonedMedia(folder)).toEqual([]);
    expect(existsSync(dir)).toBe(true);
    await pending.done();
    expect(await readdir(folder.tmpDir)).toEqual([]);
  });

  it("removes nothing a marker names outside the recipes' media folders", async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), "larder-outside-"));
    try {
      const pid = await deadPid();
      await leftBy(pid, path.relative(root, outside));
      await writeFile(path.join(folder.tmpDir, `import-media.${pid}.ba9876543210.pending`), "groups/home");
      await mkdir(path.join(root, "groups", "home"), { recursive: true });
      expect(await removeAbandonedMedia(folder)).toEqual([]);
      expect(existsSync(outside)).toBe(true);
      expect(existsSync(path.join(root, "groups", "home"))).toBe(true);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
