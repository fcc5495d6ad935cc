import { spawn } from "node:child_process";
import { mkdtemp, mkdir, readFile, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeStaleTempFiles, writeFileAtomic } from "./atomic-write.js";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const moduleUrl = pathToFileURL(path.join(projectRoot, "core/storage/atomic-write.ts")).href;

// Big enough that one write takes several syscalls, so a SIGKILL lands inside it.
const SIZE = 4 * 1024 * 1024;
const CHILD = `
import { writeFileAtomic } from ${JSON.stringify(moduleUrl)};
const [target, tmpDir] = process.argv.slice(2);
const a = "A".repeat(${SIZE});
const b = "B".repeat(${SIZE});
await writeFileAtomic(target, a, { tmpDir });
process.stdout.write("ready\\n");
for (let i = 1; ; i++) await writeFileAtomic(target, i % 2 ? b : a, { tmpDir });
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-atomic-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Start a writer, wait until it loops, SIGKILL it after `delayMs`, return the target's content. */
async function killWriterMidWrite(
  index: number,
  delayMs: number,
): Promise<{ content: string; leftovers: number }> {
  const target = path.join(dir, `target-${index}.txt`);
  const tmpDir = path.join(dir, `tmp-${index}`);
  await mkdir(tmpDir);
  const script = path.join(dir, "writer.mjs");
  const child = spawn(process.execPath, ["--import", "tsx", script, target, tmpDir], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`writer exited early with ${code}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
  });
  await new Promise((r) => setTimeout(r, delayMs));
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
  return { content: await readFile(target, "utf8"), leftovers: (await readdir(tmpDir)).length };
}

describe("writeFileAtomic", () => {
  it("leaves the old or the new content, never a torn file, when the writer is killed with SIGKILL", async () => {
    await writeFile(path.join(dir, "writer.mjs"), CHILD);
    const results: Array<{ content: string; leftovers: number }> = [];
    // Three writers at a time keeps the test quick; each run kills at a different moment. A kill lands
    // mid-write by chance (on a busy machine six may all land between writes), so rounds go on, up to
    // ten, until one has.
    const landed = () => results.some((r) => r.leftovers > 0);
    for (let round = 0; round < 10 && (round < 2 || !landed()); round++) {
      const batch = await Promise.all(
        [0, 1, 2].map((i) => killWriterMidWrite(round * 3 + i, 5 + (((round * 3 + i) * 17) % 60))),
      );
      results.push(...batch);
    }
    for (const { content } of results) {
      expect(content.length).toBe(SIZE);
      expect(content === "A".repeat(SIZE) || content === "B".repeat(SIZE)).toBe(true);
    }
    // A leftover temp file proves at least one kill landed mid-write rather than between writes.
    expect(landed()).toBe(true);
  });

  it("replaces the target and leaves no temp file behind", async () => {
    const tmpDir = path.join(dir, "tmp-plain");
    await mkdir(tmpDir);
    const target = path.join(dir, "plain.json");
    await writeFileAtomic(target, "one\n", { tmpDir });
    await writeFileAtomic(target, "two\n", { tmpDir });
    expect(await readFile(target, "utf8")).toBe("two\n");
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("creates a private file with exactly the requested mode despite the umask", async () => {
    const tmpDir = path.join(dir, "tmp-mode");
    await mkdir(tmpDir);
    const target = path.join(dir, "secret.json");
    await writeFileAtomic(target, "{}\n", { tmpDir, mode: 0o600 });
    if (process.platform !== "win32") expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it("refuses to replace an existing file in exclusive mode", async () => {
    const tmpDir = path.join(dir, "tmp-excl");
    await mkdir(tmpDir);
    const target = path.join(dir, "excl.json");
    await writeFileAtomic(target, "first\n", { tmpDir, exclusive: true });
    await expect(writeFileAtomic(target, "second\n", { tmpDir, exclusive: true })).rejects.toMatchObject({
      code: "EEXIST",
    });
    expect(await readFile(target, "utf8")).toBe("first\n");
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("writes a file worth nothing after a crash without fsync, still by rename or link", async () => {
    const tmpDir = path.join(dir, "tmp-nosync");
    await mkdir(tmpDir);
    const target = path.join(dir, "lock-like");
    const written = await writeFileAtomic(target, "first\n", {
      tmpDir,
      mode: 0o600,
      exclusive: true,
      durable: false,
    });
    const st = await stat(target);
    expect(written).toBe(`${st.size}:${st.mtimeMs}:${st.ino}`);
    if (process.platform !== "win32") expect(st.mode & 0o777).toBe(0o600);
    await expect(
      writeFileAtomic(target, "second\n", { tmpDir, exclusive: true, durable: false }),
    ).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readFile(target, "utf8")).toBe("first\n");
    await writeFileAtomic(target, "third\n", { tmpDir, durable: false });
    expect(await readFile(target, "utf8")).toBe("third\n");
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("refuses a write without fsync that asks for a check or kept attributes", async () => {
    const tmpDir = path.join(dir, "tmp-nosync-opts");
    await mkdir(tmpDir);
    const target = path.join(dir, "nosync-opts");
    await expect(writeFileAtomic(target, "x", { tmpDir, durable: false, keep: true })).rejects.toThrow(
      /durable: false/,
    );
    await expect(
      writeFileAtomic(target, "x", { tmpDir, durable: false, ifStill: { fingerprint: null, hash: null } }),
    ).rejects.toThrow(/durable: false/);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it("cleans only temp files older than the given age", async () => {
    const tmpDir = path.join(dir, "tmp-clean");
    await mkdir(tmpDir);
    await writeFile(path.join(tmpDir, "old.json.1.aa.tmp"), "x");
    await writeFile(path.join(tmpDir, "new.json.1.bb.tmp"), "x");
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(path.join(tmpDir, "old.json.1.aa.tmp"), hourAgo, hourAgo);
    expect(await removeStaleTempFiles(tmpDir, 60 * 60 * 1000)).toBe(1);
    expect(await readdir(tmpDir)).toEqual(["new.json.1.bb.tmp"]);
  });
});

describe("a write that replaces only the version its caller knows (decision 0283)", () => {
  // Small writes go to the disk thread, large ones stay on the main thread: both check.
  for (const [where, size] of [
    ["on the disk thread", 100],
    ["on the main thread", 2 * 1024 * 1024],
  ] as const) {
    it(`keeps a file saved by hand since it was read, failing with ECHANGED (${where})`, async () => {
      const { createHash } = await import("node:crypto");
      const target = path.join(dir, `known-${size}.json`);
      const tmpDir = path.join(dir, `known-tmp-${size}`);
      await mkdir(tmpDir, { recursive: true });
      const read = "r".repeat(size);
      await writeFile(target, read);
      const st = await stat(target);
      const known = {
        fingerprint: `${st.size}:${st.mtimeMs}:${st.ino}`,
        hash: createHash("sha256").update(read).digest("hex"),
      };
      // The version read is still there: replaced.
      await writeFileAtomic(target, "w".repeat(size), { tmpDir, ifStill: known });
      expect(await readFile(target, "utf8")).toBe("w".repeat(size));
      // Saved by hand since: kept, whatever its stat says.
      await writeFile(target, "h".repeat(size));
      await expect(
        writeFileAtomic(target, "x".repeat(size), { tmpDir, ifStill: known }),
      ).rejects.toMatchObject({
        code: "ECHANGED",
      });
      expect(await readFile(target, "utf8")).toBe("h".repeat(size));
      expect(await readdir(tmpDir)).toEqual([]);
    });
  }
});

describe("a write that keeps the mode and owner a person gave the file (decision 0299)", () => {
  for (const [where, size] of [
    ["on the disk thread", 100],
    ["on the main thread", 2 * 1024 * 1024],
  ] as const) {
    it(`gives the new file the target's permissions, and its owner when run as root (${where})`, async () => {
      const { chmod, chown } = await import("node:fs/promises");
      const target = path.join(dir, `kept-${size}.txt`);
      const tmpDir = path.join(dir, `kept-tmp-${size}`);
      await mkdir(tmpDir, { recursive: true });
      // No file yet: the mode asked for.
      await writeFileAtomic(target, "a".repeat(size), { tmpDir, mode: 0o600, keep: true });
      expect((await stat(target)).mode & 0o7777).toBe(0o600);
      await chmod(target, 0o640);
      const asRoot = process.getuid?.() === 0;
      if (asRoot) await chown(target, 1234, 2345);
      await writeFileAtomic(target, "b".repeat(size), { tmpDir, mode: 0o600, keep: true });
      const after = await stat(target);
      expect(await readFile(target, "utf8")).toBe("b".repeat(size));
      expect(after.mode & 0o7777).toBe(0o640);
      if (asRoot) expect([after.uid, after.gid]).toEqual([1234, 2345]);
      // Without `keep`, the mode asked for.
      await writeFileAtomic(target, "c".repeat(size), { tmpDir, mode: 0o600 });
      expect((await stat(target)).mode & 0o7777).toBe(0o600);
      expect(await readdir(tmpDir)).toEqual([]);
    });
  }
});
