import { lstat, mkdtemp, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fsyncDir, writeFileAtomic, writeSyncedTemp } from "./atomic-write.js";
import { diskThreadCalls, diskThreadOnline, lstatManyOnDiskThread, stopDiskThread } from "./disk-thread.js";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

let dir: string;
let tmpDir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-disk-thread-"));
  tmpDir = path.join(dir, "tmp");
  await mkdir(tmpDir);
  await diskThreadOnline();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("small atomic writes on the disk thread", () => {
  it("writes the whole file, with exactly the mode asked for, in one call to the thread", async () => {
    const target = path.join(dir, "secret.json");
    const before = diskThreadCalls();
    await writeFileAtomic(target, '{"a":1}\n', { tmpDir, mode: 0o600 });
    expect(diskThreadCalls() - before).toBe(1);
    expect(await readFile(target, "utf8")).toBe('{"a":1}\n');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("writes a view into a larger buffer as its own bytes", async () => {
    const target = path.join(dir, "view.txt");
    const big = Buffer.from("xxxxhello worldxxxx");
    await writeFileAtomic(target, big.subarray(4, 15), { tmpDir });
    expect(await readFile(target, "utf8")).toBe("hello world");
  });

  it("keeps the error's code, so callers tell a lost race from a failure", async () => {
    const target = path.join(dir, "taken.txt");
    await writeFile(target, "first");
    const exclusive = writeFileAtomic(target, "second", { tmpDir, exclusive: true });
    await expect(exclusive).rejects.toMatchObject({ code: "EEXIST", syscall: "link" });
    expect(await readFile(target, "utf8")).toBe("first");
    const noTmp = writeFileAtomic(path.join(dir, "x.txt"), "x", { tmpDir: path.join(dir, "missing") });
    await expect(noTmp).rejects.toMatchObject({ code: "ENOENT", syscall: "open" });
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("makes a synced temp file and syncs folders through the thread too", async () => {
    const before = diskThreadCalls();
    const tmp = await writeSyncedTemp(tmpDir, path.join(dir, "t.md"), "text", 0o644);
    expect(await readFile(tmp, "utf8")).toBe("text");
    await fsyncDir(dir);
    expect(diskThreadCalls() - before).toBe(2);
    await rm(tmp);
  });

  it("writes on the main thread until a new thread runs, after losing one", async () => {
    await writeFileAtomic(path.join(dir, "a.txt"), "a", { tmpDir });
    await stopDiskThread();
    const before = diskThreadCalls();
    await writeFileAtomic(path.join(dir, "a.txt"), "b", { tmpDir });
    expect(diskThreadCalls()).toBe(before);
    expect(await readFile(path.join(dir, "a.txt"), "utf8")).toBe("b");
    await diskThreadOnline();
    await writeFileAtomic(path.join(dir, "a.txt"), "c", { tmpDir });
    expect(diskThreadCalls()).toBe(before + 1);
    expect(await readFile(path.join(dir, "a.txt"), "utf8")).toBe("c");
  });

  it("lets a command's process exit once its writes are done", async () => {
    const moduleUrl = pathToFileURL(path.join(projectRoot, "core/storage/atomic-write.ts")).href;
    const script = `
      import { writeFileAtomic } from ${JSON.stringify(moduleUrl)};
      await writeFileAtomic(${JSON.stringify(path.join(dir, "exit.txt"))}, "done", { tmpDir: ${JSON.stringify(tmpDir)} });
    `;
    // Without unref'ing the idle thread the child would never exit and execa's timeout would fail it.
    const child = await execa(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: projectRoot,
      timeout: 20_000,
    });
    expect(child.exitCode).toBe(0);
    expect(await readFile(path.join(dir, "exit.txt"), "utf8")).toBe("done");
  });
});

describe("stat'ing many files on the disk thread", () => {
  it("answers null, rather than waiting for ever, when the thread stops before it runs", async () => {
    await stopDiskThread();
    const answer = lstatManyOnDiskThread([path.join(dir, "anything.md")]);
    await stopDiskThread();
    expect(await answer).toBeNull();
    await diskThreadOnline();
  });

  it("gives each regular file's size and mtime, and -1 for anything else", async () => {
    const at = path.join(dir, "stats");
    await mkdir(path.join(at, "folder.md"), { recursive: true });
    await writeFile(path.join(at, "a.md"), "hello");
    await writeFile(path.join(at, "b.md"), "");
    await symlink(path.join(at, "a.md"), path.join(at, "link.md"));
    const names = ["a.md", "b.md", "folder.md", "link.md", "gone.md", "a.md/inside"];
    const out = await lstatManyOnDiskThread(names.map((n) => path.join(at, n)));
    expect(out).not.toBeNull();
    const a = await lstat(path.join(at, "a.md"));
    expect(Array.from(out!)).toEqual([
      5,
      a.mtimeMs,
      0,
      (await lstat(path.join(at, "b.md"))).mtimeMs,
      -1,
      -1,
      -1,
      -1,
      -1,
      -1,
      -1,
      -1,
    ]);
  });
});
