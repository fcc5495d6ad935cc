import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "../testing/run-cli.js";
import type { StatsReport } from "./stats.js";

describe("larder stats", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    const init = await larder(["init", dir]);
    expect(init.exitCode, String(init.stderr)).toBe(0);
    const recipes = join(dir, "groups", "home", "recipes");
    // Files with an id and an owner: nothing to write back, so the first run can cache them.
    const users = JSON.parse(await readFile(join(dir, "users.json"), "utf8")) as { users: { id: string }[] };
    const owner = users.users[0].id;
    const old = new Date(Date.now() - 60_000);
    for (const [slug, text] of [
      ["soup", `---\nid: 11111111-1111-4111-8111-111111111111\nname: Soup\nowner: ${owner}\n---\nA soup.\n`],
      ["stew", `---\nid: 22222222-2222-4222-8222-222222222222\nname: Stew\nowner: ${owner}\n---\nA stew.\n`],
      ["bad", "---\nname: [unclosed\n---\n"],
    ]) {
      await writeFile(join(recipes, `${slug}.md`), text);
      // Older than the mtime granularity, so the cache may trust size and mtime.
      await utimes(join(recipes, `${slug}.md`), old, old);
    }
  });
  afterAll(() => tmp.cleanup());

  it("prints the index counts and the cache state as JSON, cold then warm", async () => {
    const first = await larder(["stats", "--data", dir, "--json"]);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const cold = json<StatsReport>(first);
    expect(cold).toMatchObject({ recipes: 2, groups: { home: 2 }, broken: 1, serverRunning: false });
    expect(cold.cache).toMatchObject({ state: "none", hits: 0, misses: 3 });

    const second = await larder(["stats", "--data", dir, "--json"]);
    const warm = json<StatsReport>(second);
    expect(warm.cache).toMatchObject({ state: "loaded", hits: 2, misses: 1, loadedEntries: 2 });
    expect(warm.cache?.savedAt).toEqual(expect.any(String));
  });

  it("prints a table for people", async () => {
    const res = await larder(["stats", "--data", dir]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout).toMatch(/^recipes\s+2$/m);
    expect(res.stdout).toMatch(/^files that do not parse\s+1$/m);
    expect(res.stdout).toMatch(/^cache\s+loaded: /m);
  });
});
