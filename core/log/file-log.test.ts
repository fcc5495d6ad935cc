import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOG_FILE, ROTATED_LOG_FILE, withLogFile } from "./file-log.js";
import { consoleLogger } from "./logger.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-log-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe("the server's log in the data folder", () => {
  it("writes every line with its time and level, formatting what follows the message", async () => {
    const log = withLogFile(consoleLogger("silent"), join(dir, "logs"));
    log.info("started on port %d", 9000);
    log.warn("cache unreadable:", new Error("bad crc"));
    log.error("boom");
    const lines = (await readFile(join(dir, "logs", LOG_FILE), "utf8")).trimEnd().split("\n");
    // An error comes with its stack, as on stderr.
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT.* INFO  started on port 9000$/);
    expect(lines[1]).toMatch(/WARN  cache unreadable: Error: bad crc/);
    expect(lines.at(-1)).toMatch(/ERROR boom$/);
  });

  it("rotates to one older file past its size, so a busy server cannot fill the disk", async () => {
    const log = withLogFile(consoleLogger("silent"), dir, 1000);
    for (let i = 0; i < 100; i++) log.info(`line ${i} ${"x".repeat(40)}`);
    expect((await readdir(dir)).sort()).toEqual([ROTATED_LOG_FILE, LOG_FILE].sort());
    expect((await readFile(join(dir, LOG_FILE))).length).toBeLessThanOrEqual(1000);
    expect(await readFile(join(dir, LOG_FILE), "utf8")).toMatch(/line 99 /);
  });
});
