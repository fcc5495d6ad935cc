/** `larder history` as a real process over a git data folder: the list, one version, and no repository. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { json, larder, tempDir } from "../testing/run-cli.js";

let tmp: Awaited<ReturnType<typeof tempDir>>;
let dir: string;
const commit = (m: string) =>
  execa("git", ["-c", "user.name=Amy", "-c", "user.email=amy@example.com", "commit", "--quiet", "-am", m], {
    cwd: dir,
  });

beforeAll(async () => {
  tmp = await tempDir();
  dir = join(tmp.path, "data");
  expect((await larder(["init", dir, "--git"])).exitCode).toBe(0);
  const file = join(dir, "groups", "home", "recipes", "tea.md");
  await writeFile(file, "---\nname: Tea\n---\n\nSteep.\n");
  await execa("git", ["add", "-A"], { cwd: dir });
  await commit("Add tea");
  await writeFile(file, "---\nname: Tea\n---\n\nSteep for three minutes.\n");
  await commit("Longer tea");
});
afterAll(async () => tmp?.cleanup());

describe("larder history", () => {
  it("lists a recipe's commits and shows one with its diff", { timeout: 60_000 }, async () => {
    const r = await larder(["history", "tea", "--data", dir, "--json"]);
    expect(r.exitCode).toBe(0);
    const items = json<Array<{ rev: string; author: string; message: string }>>(r);
    expect(items.map((i) => [i.author, i.message])).toEqual([
      ["Amy", "Longer tea"],
      ["Amy", "Add tea"],
    ]);
    const v = json<{ content: string; diff: string }>(
      await larder(["history", "tea", "--rev", items[0].rev.slice(0, 8), "--data", dir, "--json"]),
    );
    expect(v.content).toContain("three minutes");
    expect(v.diff).toContain("+Steep for three minutes.");
    expect((await larder(["history", "tea", "--rev", "deadbeef", "--data", dir])).exitCode).toBe(4);
  });

  it("is empty, not an error, when the folder is not a repository", { timeout: 60_000 }, async () => {
    const plain = join(tmp.path, "plain");
    expect((await larder(["init", plain])).exitCode).toBe(0);
    await writeFile(join(plain, "groups", "home", "recipes", "tea.md"), "---\nname: Tea\n---\n");
    const r = await larder(["history", "tea", "--data", plain, "--json"]);
    expect(r.exitCode).toBe(0);
    expect(json(r)).toEqual([]);
  });
});
