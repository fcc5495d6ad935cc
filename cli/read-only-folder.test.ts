/**
 * A data folder on a read-only file system, as a mounted snapshot or a read-only volume gives one. The
 * mount needs root (CI and the dev machines run as root); elsewhere the test is skipped.
 */
import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, larder, tempDir } from "./testing/run-cli.js";

function readOnlyMount(source: string, target: string): boolean {
  try {
    execFileSync("mount", ["--bind", source, target], { stdio: "ignore" });
    execFileSync("mount", ["-o", "remount,bind,ro", target], { stdio: "ignore" });
    return true;
  } catch {
    try {
      execFileSync("umount", [target], { stdio: "ignore" });
    } catch {
      // never mounted
    }
    return false;
  }
}

describe("a data folder on a read-only file system", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let ro: string;
  let mounted = false;
  beforeAll(async () => {
    tmp = await tempDir();
    const dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    ro = join(tmp.path, "ro");
    await mkdir(ro);
    mounted = process.getuid?.() === 0 && readOnlyMount(dir, ro);
  });
  afterAll(async () => {
    if (mounted) execFileSync("umount", [ro], { stdio: "ignore" });
    await tmp?.cleanup();
  });

  it("is refused by a reading command with one line saying why, not 'the change was not saved'", async (ctx) => {
    if (!mounted) ctx.skip();
    const expected = `${ro} is on a read-only file system: Larder writes its lock and caches in .larder/ even to read a folder; mount it read-write or copy it somewhere writable`;
    for (const command of [["check"], ["stats"], ["user", "list"], ["serve", "--port", "1"]]) {
      const res = await larder([...command, "--data", ro]);
      expect([command, res.exitCode]).toEqual([command, 1]);
      expect(String(res.stderr).trim()).toBe(expected);
    }
    const scripted = await larder(["check", "--data", ro, "--json"]);
    expect(json(scripted)).toEqual({ error: { message: expected, exitCode: 1 } });
  });
});
