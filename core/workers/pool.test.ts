import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../auth/passwords.js";
import { parseShared, poolSize } from "../recipes/store/parse-pool.js";
import { runInPool, stopWorkerPool, workerPoolLoaded } from "./pool.js";

afterAll(async () => {
  await stopWorkerPool();
});

describe("the worker pool", () => {
  it("loads nothing until the first task: importing the modules that use it starts no thread", async () => {
    expect(poolSize(10)).toBe(0);
    expect(
      await parseShared(
        [],
        () => ({ units: [], foods: [] }),
        () => ({ error: { message: "", line: null } }),
        0,
      ),
    ).toEqual([]);
    expect(workerPoolLoaded()).toBe(false);
    const hash = await hashPassword("pool", 4);
    expect(workerPoolLoaded()).toBe(true);
    expect(await verifyPassword("pool", hash)).toBe(true);
  });

  it("runs password and parse tasks side by side on the same threads", async () => {
    const text = "---\nname: Toast\n---\n\n## Instructions\n\n1. Toast the bread.\n";
    const [hash, parsed] = await Promise.all([
      runInPool({ op: "hash", password: "pool", rounds: 4 }),
      runInPool({
        op: "parse",
        batch: { jobs: [["home", text]], vocabularies: { home: { units: [], foods: [] } } },
      }),
    ]);
    expect(hash).toMatch(/^\$2b\$04\$/);
    expect(parsed).toHaveLength(1);
    expect("doc" in parsed[0] && parsed[0].doc.name).toBe("Toast");
  });

  it("gives back a task's system error with its code and system call, as a full disk must read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "larder-pool-"));
    try {
      const e = await runInPool({
        op: "backup",
        root: join(dir, "no-such-folder"),
        target: join(dir, "no-such-folder", "out", "b.zip"),
        secrets: false,
      }).then(
        () => null,
        (err: unknown) => err as NodeJS.ErrnoException,
      );
      expect(e).toBeInstanceOf(Error);
      expect(e?.code).toBe("ENOENT");
      expect(typeof e?.syscall).toBe("string");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("starts afresh after a stop", async () => {
    await stopWorkerPool();
    expect(workerPoolLoaded()).toBe(false);
    expect(
      await runInPool({
        op: "compare",
        password: "x",
        hash: await runInPool({ op: "hash", password: "x", rounds: 4 }),
      }),
    ).toBe(true);
  });
});
