import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, resolveConfig } from "prettier";
import { afterEach, beforeEach, expect, it } from "vitest";
import { writeFormatted } from "../../bench/write-formatted.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-bench-format-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("writes a table and JSON that the format check accepts", async () => {
  for (const [name, text] of [
    ["figures.md", "# Figures\n\n| what | measured |\n|---|---|\n| pages | 1555/s |\n"],
    ["results.json", JSON.stringify({ pages: [1, 2, 3], p99: 2082 }, null, 2)],
  ]) {
    const path = join(dir, name);
    await writeFormatted(path, text);
    const written = await readFile(path, "utf8");
    expect(await check(written, { ...((await resolveConfig(path)) ?? {}), filepath: path }), name).toBe(true);
    expect(written).toContain(name.endsWith(".md") ? "| pages | 1555/s   |" : '"p99": 2082');
  }
});
