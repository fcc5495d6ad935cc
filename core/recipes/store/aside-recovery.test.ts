/**
 * Putting back a recipe a crashed write left moved aside (replace-file.ts): whose writer counts as gone.
 * A server killed with -9 that its parent has not reaped (a zombie: under a shell, or as a container's
 * only process) still answers signals; a process number can be another program's after a reboot.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { consoleLogger } from "../../log/logger.js";
import { isProcessAlive } from "../../storage/process-alive.js";
import { recoverAsideFiles } from "./replace-file.js";

const log = consoleLogger("silent");
let dir: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-aside-"));
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

/** A process that stays a zombie: `sh` runs a short `sleep` in the background, then becomes a long one, which never reaps it. */
async function zombie(): Promise<number> {
  const sh = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(sh);
  const pid = await new Promise<number>((resolve) =>
    sh.stdout!.once("data", (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  await expect.poll(() => isProcessAlive(pid), { timeout: 5_000 }).toBe(false);
  return pid;
}

function live(): number {
  const p = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(p);
  return p.pid!;
}

async function leftAside(pid: number): Promise<string> {
  await writeFile(join(dir, `.soup.md.larder-aside-${pid}-abcd1234`), "---\nname: Soup\n---\n");
  return join(dir, "soup.md");
}

describe("recovering a file a write left aside", () => {
  it("counts a killed process its parent never reaped as gone, and puts its file back", async () => {
    const pid = await zombie();
    // It still answers a signal, as a running process would.
    expect(() => process.kill(pid, 0)).not.toThrow();
    const target = await leftAside(pid);
    await recoverAsideFiles(dir, log);
    expect(await readFile(target, "utf8")).toContain("name: Soup");
    expect(await readdir(dir)).toEqual(["soup.md"]);
  });

  it("leaves a running writer's file, until it has been aside longer than any write holds one", async () => {
    const pid = live();
    expect(isProcessAlive(pid)).toBe(true);
    await leftAside(pid);
    await recoverAsideFiles(dir, log);
    expect(await readdir(dir)).toEqual([`.soup.md.larder-aside-${pid}-abcd1234`]);
    // As after a reboot, when the number is another program's: long past any write, it is put back.
    await recoverAsideFiles(dir, log, 0);
    expect(await readdir(dir)).toEqual(["soup.md"]);
  });
});
