/** `larder maintenance clean` as a real process: --dry-run lists and keeps, a clean removes only what it listed. */
import { existsSync } from "node:fs";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../testing/run-cli.js";

let tmp: Awaited<ReturnType<typeof tempDir>>;
let dir: string;
beforeAll(async () => {
  tmp = await tempDir();
  dir = join(tmp.path, "data");
  expect((await larder(["init", dir])).exitCode).toBe(0);
});
afterAll(async () => tmp?.cleanup());

type Result = { kind: string; dryRun: boolean; paths: string[]; message: string };

describe("larder maintenance clean", () => {
  it(
    "orphans: a media folder with no recipe goes, a recipe's folder stays; --dry-run removes nothing",
    { timeout: 90_000 },
    async () => {
      const recipes = join(dir, "groups", "home", "recipes");
      await writeFile(join(recipes, "kept.md"), "---\nname: Kept\n---\n");
      await mkdir(join(recipes, "kept"), { recursive: true });
      await mkdir(join(recipes, "gone"), { recursive: true });
      await writeFile(join(recipes, "gone", "original.jpg"), "x");
      // A person's own subfolders of recipe files are no media folder: never removed, at any depth.
      await mkdir(join(recipes, "desserts", "old"), { recursive: true });
      await writeFile(join(recipes, "desserts", "pie.md"), "---\nname: Pie\n---\n");
      await writeFile(join(recipes, "desserts", "old", "tart.md"), "---\nname: Tart\n---\n");
      await mkdir(join(recipes, "archive", "2019"), { recursive: true });
      await writeFile(join(recipes, "archive", "2019", "stew.md"), "---\nname: Stew\n---\n");
      const check = await larder(["check", "--data", dir]);
      expect(check.stdout).toMatch(/desserts\/.*recipes in subfolders are not read/);
      const dry = json<Result>(
        await larder(["maintenance", "clean", "orphans", "--dry-run", "--data", dir, "--json"]),
      );
      expect(dry).toMatchObject({ kind: "orphans", dryRun: true, paths: ["groups/home/recipes/gone"] });
      expect(existsSync(join(recipes, "gone"))).toBe(true);
      const done = await larder(["maintenance", "clean", "orphans", "--data", dir, "--json"]);
      expect(done.exitCode).toBe(0);
      expect(json<Result>(done).paths).toEqual(["groups/home/recipes/gone"]);
      expect(existsSync(join(recipes, "gone"))).toBe(false);
      expect(existsSync(join(recipes, "kept"))).toBe(true);
      expect(existsSync(join(recipes, "desserts", "old", "tart.md"))).toBe(true);
      expect(existsSync(join(recipes, "archive", "2019", "stew.md"))).toBe(true);
    },
  );

  it("temp: only files old enough that no write can be using them", { timeout: 60_000 }, async () => {
    const tmpDir = join(dir, ".larder", "tmp");
    await writeFile(join(tmpDir, "old.tmp"), "x");
    // Older than the clean's 5 minutes, younger than the hour after which opening the folder removes it anyway.
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(join(tmpDir, "old.tmp"), tenMinutesAgo, tenMinutesAgo);
    await writeFile(join(tmpDir, "fresh.tmp"), "y");
    const dry = json<Result>(
      await larder(["maintenance", "clean", "temp", "--dry-run", "--data", dir, "--json"]),
    );
    expect(dry.paths).toEqual([".larder/tmp/old.tmp"]);
    expect((await larder(["maintenance", "clean", "temp", "--data", dir])).exitCode).toBe(0);
    expect(existsSync(join(tmpDir, "old.tmp"))).toBe(false);
    expect(existsSync(join(tmpDir, "fresh.tmp"))).toBe(true);
  });

  it("refuses an unknown kind (exit 2)", { timeout: 30_000 }, async () => {
    expect((await larder(["maintenance", "clean", "everything", "--data", dir])).exitCode).toBe(2);
  });
});
