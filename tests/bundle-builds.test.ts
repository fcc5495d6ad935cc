/**
 * Rebuilding the bundle while a server runs from it (decision 0219): the files of the build the server
 * started from stay until they are old, so the chunks it loads on first use are still there. Two starts
 * that find the build stale build one after the other (scripts/build-if-stale.mjs's lock).
 */
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { KEEP_EARLIER_BUILDS_MS, pruneEarlierBuilds } from "../scripts/bundle.mjs";
import { withBuildLock } from "../scripts/build-if-stale.mjs";
import { tempDir } from "../cli/testing/run-cli.js";

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function files(dir: string, sub = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await files(dir, rel)));
    else out.push(rel);
  }
  return out.sort();
}

describe("a new build beside an earlier one", () => {
  it("keeps the earlier build's files until they are old, and never the compile cache's or the new build's", async () => {
    const t = await tempDir("larder-builds-");
    cleanup = t.cleanup;
    const dir = t.path;
    const now = Date.now();
    const write = async (rel: string, ageMs: number) => {
      await mkdir(join(dir, rel, ".."), { recursive: true });
      await writeFile(join(dir, rel), "x");
      const at = new Date(now - ageMs);
      await utimes(join(dir, rel), at, at);
    };
    const old = KEEP_EARLIER_BUILDS_MS + 3600_000;
    // The new build (old mtimes too: a file esbuild rewrote with the same bytes may keep its time).
    await write("larder.js", old);
    await write("chunks/server-NEW.js", 0);
    await write("worker-new.js", 0);
    // An earlier build: one a running server may still load from, one long gone.
    await write("chunks/server-RECENT.js", 3600_000);
    await write("worker-recent.js", 3600_000);
    await write("chunks/server-OLD.js", old);
    await write("chunks/server-OLD.js.map", old);
    await write("worker-old.js", old);
    await write(".compile-cache/v22/abc", old);

    const deleted = pruneEarlierBuilds(
      dir,
      new Set(["larder.js", "chunks/server-NEW.js", "worker-new.js"]),
      KEEP_EARLIER_BUILDS_MS,
      now,
    );
    expect(deleted.sort()).toEqual(["chunks/server-OLD.js", "chunks/server-OLD.js.map", "worker-old.js"]);
    expect(await files(dir)).toEqual([
      ".compile-cache/v22/abc",
      "chunks/server-NEW.js",
      "chunks/server-RECENT.js",
      "larder.js",
      "worker-new.js",
      "worker-recent.js",
    ]);
  });
});

describe("two starts that find the build stale at once", () => {
  it("build one after the other: the second waits for the first's lock and says so", async () => {
    const t = await tempDir("larder-build-lock-");
    cleanup = t.cleanup;
    const lock = join(t.path, "build.lock");
    const order: string[] = [];
    const said: string[] = [];
    let finishFirst!: () => void;
    const firstHolds = new Promise<void>((r) => (finishFirst = r));
    let firstStarted!: () => void;
    const started = new Promise<void>((r) => (firstStarted = r));
    const first = withBuildLock(
      () => {},
      async () => {
        order.push("first begins");
        firstStarted();
        await firstHolds;
        order.push("first ends");
      },
      lock,
    );
    await started;
    const second = withBuildLock(
      (line) => {
        said.push(line);
        // Told to wait: the first may now finish.
        finishFirst();
      },
      () => void order.push("second runs"),
      lock,
    );
    await Promise.all([first, second]);
    expect(order).toEqual(["first begins", "first ends", "second runs"]);
    expect(said).toEqual(["larder: another start is building; waiting for it to finish"]);
    await expect(readdir(t.path)).resolves.toEqual([]);
  });

  it("takes over a lock whose builder was killed", async () => {
    const t = await tempDir("larder-build-lock-");
    cleanup = t.cleanup;
    const lock = join(t.path, "build.lock");
    const gone = spawn(process.execPath, ["-e", ""]);
    const pid = gone.pid as number;
    await new Promise((r) => gone.on("exit", r));
    await mkdir(lock);
    await writeFile(join(lock, "pid"), String(pid));
    const said: string[] = [];
    await expect(
      withBuildLock(
        (l) => said.push(l),
        () => "built",
        lock,
      ),
    ).resolves.toBe("built");
    expect(said).toEqual([]);
    await expect(readdir(t.path)).resolves.toEqual([]);
  });
});
