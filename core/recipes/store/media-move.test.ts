import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { finishAbandonedMediaMoves, markMediaMove } from "./media-move.js";
import { makeFolder, type TestFolder } from "./test-helpers.js";

let t: TestFolder;
beforeEach(async () => {
  t = await makeFolder();
});
afterEach(() => t.cleanup());

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

async function photoIn(slug: string, group = "home"): Promise<string> {
  const dir = t.folder.recipeMediaDir(group, slug);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "original.webp"), "photo");
  return dir;
}

/** The marker a rename from `from` to `to` leaves when its process is killed before finishing. */
async function leftBy(pid: number, from: string, to: string): Promise<void> {
  const text = JSON.stringify({ from, to });
  await writeFile(path.join(t.folder.tmpDir, `media-move.${pid}.0123456789ab.pending`), text);
}

describe("a rename killed between moving its recipe file and its media folder", () => {
  it("moves the photo to the recipe's new name at the next open", async () => {
    await t.putText("tomato-soup", "---\nname: Tomato Soup\n---\n");
    await photoIn("soup");
    await leftBy(await deadPid(), "groups/home/recipes/soup", "groups/home/recipes/tomato-soup");
    expect(await finishAbandonedMediaMoves(t.folder)).toEqual([
      "groups/home/recipes/soup → groups/home/recipes/tomato-soup",
    ]);
    const moved = path.join(t.folder.recipeMediaDir("home", "tomato-soup"), "original.webp");
    expect(await readFile(moved, "utf8")).toBe("photo");
    expect(existsSync(t.folder.recipeMediaDir("home", "soup"))).toBe(false);
    expect(await readdir(t.folder.tmpDir)).toEqual([]);
  });

  it("leaves everything where it is when the kill came before the file moved", async () => {
    await t.putText("soup", "---\nname: Soup\n---\n");
    const dir = await photoIn("soup");
    await leftBy(await deadPid(), "groups/home/recipes/soup", "groups/home/recipes/tomato-soup");
    expect(await finishAbandonedMediaMoves(t.folder)).toEqual([]);
    expect(existsSync(path.join(dir, "original.webp"))).toBe(true);
    expect(existsSync(t.folder.recipeMediaDir("home", "tomato-soup"))).toBe(false);
    expect(await readdir(t.folder.tmpDir)).toEqual([]);
  });

  it("never merges into a media folder that exists, nor moves across groups or outside the recipes", async () => {
    await t.putText("tomato-soup", "---\nname: Tomato Soup\n---\n");
    await photoIn("soup");
    await photoIn("tomato-soup");
    const pid = await deadPid();
    await leftBy(pid, "groups/home/recipes/soup", "groups/home/recipes/tomato-soup");
    await writeFile(
      path.join(t.folder.tmpDir, `media-move.${pid}.ba9876543210.pending`),
      JSON.stringify({ from: "groups/home/recipes/soup", to: "groups/other/recipes/soup" }),
    );
    await writeFile(
      path.join(t.folder.tmpDir, `media-move.${pid}.aaaaaaaaaaaa.pending`),
      JSON.stringify({ from: "groups/home/recipes/soup", to: "../elsewhere" }),
    );
    await writeFile(path.join(t.folder.tmpDir, `media-move.${pid}.bbbbbbbbbbbb.pending`), '{"from":"gro');
    expect(await finishAbandonedMediaMoves(t.folder)).toEqual([]);
    expect(existsSync(t.folder.recipeMediaDir("home", "soup"))).toBe(true);
    expect(existsSync(path.join(t.root, "..", "elsewhere"))).toBe(false);
    // Each marker is done with, the torn one included.
    expect(await readdir(t.folder.tmpDir)).toEqual([]);
  });

  it("leaves a rename in progress alone: the marker of a live process", async () => {
    await t.putText("tomato-soup", "---\nname: Tomato Soup\n---\n");
    const from = await photoIn("soup");
    const moving = await markMediaMove(t.folder, from, t.folder.recipeMediaDir("home", "tomato-soup"));
    expect(await finishAbandonedMediaMoves(t.folder)).toEqual([]);
    expect(existsSync(from)).toBe(true);
    await moving.done();
    expect(await readdir(t.folder.tmpDir)).toEqual([]);
  });
});
