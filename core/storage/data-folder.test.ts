import { mkdtemp, mkdir, readFile, readdir, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConflictError } from "../errors.js";
import {
  DataFolder,
  ReplacedFolderError,
  UnsafePathError,
  findTemplatesDir,
  initDataFolder,
} from "./data-folder.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-folder-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("DataFolder paths", () => {
  const folder = new DataFolder("/srv/larder");

  it("lays out the folder as ARCHITECTURE §2 describes", () => {
    expect(folder.larderJson).toBe(path.resolve("/srv/larder/larder.json"));
    expect(folder.recipeFile("home", "pancakes")).toBe(
      path.resolve("/srv/larder/groups/home/recipes/pancakes.md"),
    );
    expect(folder.recipeMediaDir("home", "pancakes")).toBe(
      path.resolve("/srv/larder/groups/home/recipes/pancakes"),
    );
    expect(folder.shoppingListsJson("home", "family")).toBe(
      path.resolve("/srv/larder/groups/home/households/family/shopping-lists.json"),
    );
    expect(folder.activityFile("home", "2024-05")).toBe(
      path.resolve("/srv/larder/groups/home/activity/2024-05.jsonl"),
    );
    expect(folder.sessionsJson).toBe(path.resolve("/srv/larder/.larder/sessions.json"));
    expect(folder.tmpDir).toBe(path.resolve("/srv/larder/.larder/tmp"));
  });

  const hostile: Array<[string, string]> = [
    ["parent traversal", "../etc"],
    ["nested traversal", "home/../../x"],
    ["a dot name", ".."],
    ["an absolute path", "/etc/passwd"],
    ["a Windows absolute path", "C:\\Windows"],
    ["a NUL byte", "home\u0000.md"],
    ["a separator", "a/b"],
    ["a backslash", "a\\b"],
    ["upper case", "Home"],
    ["an empty string", ""],
    ["a leading dash", "-x"],
    ["a very long slug", "a".repeat(500)],
  ];
  for (const [label, value] of hostile) {
    it(`refuses ${label} as a slug`, () => {
      expect(() => folder.groupDir(value)).toThrow(UnsafePathError);
      expect(() => folder.recipeFile("home", value)).toThrow(UnsafePathError);
      expect(() => folder.householdJson("home", value)).toThrow(UnsafePathError);
    });
  }

  it("answers an unsafe slug with a 400", () => {
    try {
      folder.recipeFile("home", "../../secrets");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UnsafePathError);
      expect((e as UnsafePathError).status).toBe(400);
    }
  });

  it("refuses a month that is not yyyy-mm", () => {
    expect(() => folder.activityFile("home", "2024-13")).toThrow(UnsafePathError);
    expect(() => folder.activityFile("home", "../2024-01")).toThrow(UnsafePathError);
  });
});

describe("DataFolder paths through a folder replaced by a symlink", () => {
  it("refuses every path of a household whose folder is a symlink, and of a group whose recipes folder is", async () => {
    const root = path.join(dir, "data");
    const folder = new DataFolder(root);
    const household = path.join(root, "groups", "home", "households", "family");
    await mkdir(household, { recursive: true });
    await mkdir(path.join(root, "groups", "home", "recipes"));
    const outside = path.join(dir, "outside");
    await mkdir(outside);
    // Found real first, in an earlier turn: a swap made after that check is still seen.
    expect(folder.householdJson("home", "family")).toBe(path.join(household, "household.json"));
    await Promise.resolve();
    await rm(household, { recursive: true });
    await symlink(outside, household);
    for (const build of [
      () => folder.householdDir("home", "family"),
      () => folder.cookbooksJson("home", "family"),
      () => folder.shoppingListsDir("home", "family"),
    ])
      expect(build).toThrow(/groups\/home\/households\/family is not a folder of the data folder/);
    expect(() => folder.householdDir("home", "family")).toThrow(ReplacedFolderError);
    // The group's own paths and another household's stay usable.
    expect(folder.foodsJson("home")).toBe(path.join(root, "groups", "home", "foods.json"));
    expect(folder.householdDir("home", "other")).toBe(
      path.join(root, "groups", "home", "households", "other"),
    );

    await rename(path.join(root, "groups", "home", "recipes"), path.join(dir, "recipes-moved"));
    await symlink(outside, path.join(root, "groups", "home", "recipes"));
    for (const build of [
      () => folder.recipesDir("home"),
      () => folder.recipeFile("home", "soup"),
      () => folder.recipeMediaDir("home", "soup"),
    ])
      expect(build).toThrow(ReplacedFolderError);
  });

  it("refuses a group folder that is a file, and takes a folder not made yet", async () => {
    const root = path.join(dir, "data");
    const folder = new DataFolder(root);
    await mkdir(path.join(root, "groups"), { recursive: true });
    expect(folder.recipeFile("new", "soup")).toBe(path.join(root, "groups", "new", "recipes", "soup.md"));
    await writeFile(path.join(root, "groups", "home"), "");
    expect(() => folder.groupJson("home")).toThrow(ReplacedFolderError);
  });
});

describe("initDataFolder", () => {
  it("copies the template, renames gitignore to .gitignore and creates a private .larder/", async () => {
    const target = path.join(dir, "data");
    const { created, folder } = await initDataFolder(target, { templatesDir: await findTemplatesDir() });
    expect(created).toBe(true);
    expect(JSON.parse(await readFile(folder.larderJson, "utf8"))).toMatchObject({ formatVersion: 1 });
    expect(await readFile(path.join(target, ".gitignore"), "utf8")).toMatch(/^\.larder\/$/m);
    await expect(stat(path.join(target, "gitignore"))).rejects.toMatchObject({ code: "ENOENT" });
    if (process.platform !== "win32") expect((await stat(folder.privateDir)).mode & 0o777).toBe(0o700);
    expect((await readdir(folder.privateDir)).sort()).toEqual(["backups", "cache", "logs", "tmp"]);
  });

  it("accepts an existing Larder folder and only restores its .larder/ (a git clone has none)", async () => {
    const templatesDir = await findTemplatesDir();
    const { folder } = await initDataFolder(dir, { templatesDir });
    await writeFile(folder.larderJson, '{"formatVersion": 1, "defaultGroup": "mine"}\n');
    await rm(folder.privateDir, { recursive: true });
    const again = await initDataFolder(dir, { templatesDir });
    expect(again.created).toBe(false);
    expect(await readFile(folder.larderJson, "utf8")).toContain("mine");
    expect((await stat(folder.tmpDir)).isDirectory()).toBe(true);
  });

  it("adopts a folder holding only a fresh .git", async () => {
    await mkdir(path.join(dir, ".git"));
    expect((await initDataFolder(dir, { templatesDir: await findTemplatesDir() })).created).toBe(true);
  });

  it("refuses a non-empty folder that is not a Larder folder", async () => {
    await writeFile(path.join(dir, "thesis.docx"), "precious");
    await expect(initDataFolder(dir, { templatesDir: await findTemplatesDir() })).rejects.toThrow(
      ConflictError,
    );
    expect(await readdir(dir)).toEqual(["thesis.docx"]);
  });
});
