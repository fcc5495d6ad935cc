import { mkdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../testing/run-cli.js";

describe("larder init", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    tmp = await tempDir();
  });
  afterEach(() => tmp.cleanup());

  it("creates a data folder in first-start state whose check is clean", async () => {
    const dir = join(tmp.path, "kitchen");
    const init = await larder(["init", dir, "--json"]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
    expect(json(init)).toEqual({
      dataDir: dir,
      login: { username: "admin", email: "changeme@example.com", password: "MyPassword" },
    });
    expect(existsSync(join(dir, "larder.json"))).toBe(true);
    expect(await readFile(join(dir, ".gitignore"), "utf8")).toContain(".larder");
    // The lock is never left behind by a one-shot command.
    expect(existsSync(join(dir, ".larder", "lock"))).toBe(false);

    const check = await larder(["check", "--data", dir, "--json"]);
    expect(check.exitCode, String(check.stderr)).toBe(0);
    expect(json(check)).toEqual({ recipes: 0, broken: [], orphans: [], problems: [] });

    const users = await larder(["--json", "user", "list", "--data", dir]);
    expect(
      json<Array<{ username: string; group: string; household: string; admin: boolean }>>(users),
    ).toMatchObject([{ username: "admin", group: "Home", household: "Family", admin: true }]);
  });

  it("seeds foods, units and labels unless --no-seed is given", async () => {
    const seeded = join(tmp.path, "seeded");
    const bare = join(tmp.path, "bare");
    expect((await larder(["init", seeded])).exitCode).toBe(0);
    expect((await larder(["init", bare, "--no-seed"])).exitCode).toBe(0);
    const count = async (dir: string, file: string) => {
      const text = await readFile(join(dir, "groups", "home", file), "utf8").catch(() => "{}");
      const doc = JSON.parse(text) as Record<string, unknown>;
      return Object.values(doc).reduce<number>(
        (n, v) => n + (Array.isArray(v) ? v.length : v && typeof v === "object" ? Object.keys(v).length : 0),
        0,
      );
    };
    for (const file of ["foods.json", "units.json", "labels.json"]) {
      expect(await count(seeded, file), file).toBeGreaterThan(0);
      expect(await count(bare, file), file).toBe(0);
    }
  });

  it("prints the login in plain text when stdout is not a terminal", async () => {
    const res = await larder(["init", join(tmp.path, "plain")]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toContain("Created a Larder data folder");
    expect(res.stdout).toContain("MyPassword");
    // Plain text for scripts: no escape sequences when stdout is a pipe.
    expect(res.stdout).not.toContain("\u001b[");
  });

  it("accepts an empty folder that only holds .git", async () => {
    const dir = join(tmp.path, "repo");
    await mkdir(join(dir, ".git"), { recursive: true });
    const res = await larder(["init", dir]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(existsSync(join(dir, "larder.json"))).toBe(true);
  });

  it("refuses a non-empty folder that is not a Larder folder, with exit code 1", async () => {
    const dir = join(tmp.path, "stuff");
    await mkdir(dir);
    await writeFile(join(dir, "notes.txt"), "mine\n");
    const res = await larder(["init", dir]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain("is not empty and is not a Larder data folder");
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(dir, "larder.json"))).toBe(false);
  });

  it("refuses a folder that already is a Larder folder", async () => {
    const dir = join(tmp.path, "twice");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    const again = await larder(["init", dir, "--json"]);
    expect(again.exitCode).toBe(1);
    expect(json<{ error: { message: string; exitCode: number } }>(again).error).toMatchObject({
      exitCode: 1,
      message: expect.stringContaining("already a Larder data folder"),
    });
  });
});

describe("larder init --git", () => {
  it(
    "makes the folder a repository with .gitattributes, .larder/ ignored, everything else committed",
    { timeout: 60_000 },
    async () => {
      const { execa } = await import("execa");
      const t = await tempDir();
      try {
        const dir = join(t.path, "data");
        const r = await larder(["init", dir, "--git", "--json"]);
        expect(r.exitCode).toBe(0);
        expect(json(r)).toMatchObject({ dataDir: dir, git: true });
        const files = (await execa("git", ["ls-files"], { cwd: dir })).stdout.split("\n");
        expect(files).toContain(".gitattributes");
        expect(files).toContain("larder.json");
        expect(files.some((f) => f.startsWith(".larder/"))).toBe(false);
        expect((await execa("git", ["status", "--porcelain"], { cwd: dir })).stdout).toBe("");
      } finally {
        await t.cleanup();
      }
    },
  );
});
