import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const moduleUrl = pathToFileURL(fileURLToPath(new URL("./v8-flags.ts", import.meta.url))).href;

/**
 * A child node (young generation 4 MB, ceiling 32 MB) holds its young generation with a V8 flag set
 * at run time, starts a worker thread (kept or not), then allocates what all survives; prints the
 * young generation's size in MB.
 */
async function youngAfterWorker(keep: boolean): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    import { Worker } from "node:worker_threads";
    import { keepV8FlagsAcross, useV8Flag } from ${JSON.stringify(moduleUrl)};
    useV8Flag("--semi-space-growth-factor=1");
    const w = new Worker("setTimeout(() => {}, 5000)", { eval: true, execArgv: [] });
    if (${keep}) keepV8FlagsAcross(w);
    await new Promise((r) => w.once("online", r));
    await new Promise((r) => setImmediate(r));
    const kept = [];
    for (let i = 0; i < 2e6; i++) kept.push({ a: i, b: "s" + i });
    const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1048576));
    await w.terminate();
  `;
  const { stdout } = await execa(
    process.execPath,
    [
      "--min-semi-space-size=4",
      "--max-semi-space-size=32",
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      script,
    ],
    { cwd: root },
  );
  return Number(stdout);
}

describe("V8 flags set while running", () => {
  it("stay in force after a worker thread starts", async () => {
    const [kept, lost] = await Promise.all([youngAfterWorker(true), youngAfterWorker(false)]);
    // Two semi-spaces of 4 MB: held. Without setting the flag again, the worker's start let it grow.
    expect(kept).toBeLessThan(10);
    expect(lost).toBeGreaterThan(20);
  });
});
