import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import {
  holdYoungGeneration,
  LARGE_FOLDER_RECIPES,
  servingHeapFlag,
  useServingHeapGrowth,
  useServingYoungGeneration,
} from "./serving-heap.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * A child node keeps 400,000 small objects and allocates garbage on top of them, after
 * `useServingHeapGrowth` (given `execArgv`) or without it; prints what it returned and the largest
 * heap V8 committed meanwhile, in MB.
 */
async function committedPeak(call: "no call" | string[]): Promise<{ set: unknown; peakMb: number }> {
  const script = `
    import { getHeapStatistics } from "node:v8";
    import { useServingHeapGrowth } from "./cli/serving-heap.ts";
    const call = ${JSON.stringify(call)};
    const set = call === "no call" ? null : useServingHeapGrowth(10000, call);
    const keep = [];
    for (let i = 0; i < 400000; i++) keep.push({ a: "x" + i, b: [i, i + 1] });
    let peak = 0;
    for (let r = 0; r < 80; r++) {
      const junk = [];
      for (let i = 0; i < 50000; i++) junk.push({ s: "y" + i + r, n: [i] });
      peak = Math.max(peak, getHeapStatistics().total_heap_size);
    }
    process.stdout.write(JSON.stringify({ set, peakMb: peak / 1048576, kept: keep.length }));
  `;
  const { stdout } = await execa(
    process.execPath,
    ["--max-semi-space-size=4", "--import", "tsx", "--input-type=module", "-e", script],
    { cwd: root },
  );
  return JSON.parse(stdout) as { set: unknown; peakMb: number };
}

describe("the heap growth larder serve sets once the folder is open", () => {
  it("leaves a growth factor the operator gave node alone", () => {
    expect(
      useServingHeapGrowth(10000, ["--max-old-space-size=1024", "--heap-growing-percent=50"]),
    ).toBeNull();
    expect(useServingHeapGrowth(10000, ["--heap_growing_percent=50"])).toBeNull();
    expect(useServingHeapGrowth(10000, ["--heap-growing-percent", "50"])).toBeNull();
  });

  it("gives a folder of 25,000 recipes or more twice the headroom", () => {
    expect(servingHeapFlag(0)).toBe("--heap-growing-percent=20");
    expect(servingHeapFlag(LARGE_FOLDER_RECIPES - 1)).toBe("--heap-growing-percent=20");
    expect(servingHeapFlag(LARGE_FOLDER_RECIPES)).toBe("--heap-growing-percent=40");
  });

  it("keeps the committed heap near the live one under allocation", async () => {
    // V8's own growth lets the old space reach several times the live set between full collections.
    const [own, serving] = await Promise.all([committedPeak("no call"), committedPeak([])]);
    expect(serving.set).toBe("--heap-growing-percent=20");
    expect(serving.peakMb).toBeLessThan(own.peakMb / 2);
  });
});

describe("the young generation larder serve lets grow for a large folder", () => {
  it("holds only what the start scripts started, and lifts only for a large folder", () => {
    // No start size on the command line (this test process): nothing to hold, nothing to lift.
    expect(holdYoungGeneration(["--max-semi-space-size=16"])).toBe(false);
    expect(useServingYoungGeneration(LARGE_FOLDER_RECIPES)).toBeNull();
  });

  it("stays at its start size through a start that keeps everything, then grows once a large folder is open", async () => {
    const script = `
      import { getHeapSpaceStatistics } from "node:v8";
      import { holdYoungGeneration, useServingYoungGeneration } from "./cli/serving-heap.ts";
      const young = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576;
      const keep = [];
      const fill = () => { for (let i = 0; i < 1.5e6; i++) keep.push({ a: i, b: "s" + i }); };
      const held = holdYoungGeneration();
      fill();
      const atOpen = young();
      const small = useServingYoungGeneration(10000);
      fill();
      const smallFolder = young();
      const large = useServingYoungGeneration(50000);
      fill();
      process.stdout.write(JSON.stringify({ held, atOpen, small, smallFolder, large, largeFolder: young() }));
    `;
    const { stdout } = await execa(
      process.execPath,
      [
        "--min-semi-space-size=4",
        "--max-semi-space-size=16",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        script,
      ],
      { cwd: root },
    );
    const r = JSON.parse(stdout) as Record<string, unknown>;
    expect(r.held).toBe(true);
    // Two semi-spaces of 4 MB (what node started with), then of up to 16 MB.
    expect(r.atOpen).toBeLessThan(10);
    expect(r.small).toBeNull();
    expect(r.smallFolder).toBeLessThan(10);
    expect(r.large).toBe("--semi-space-growth-factor=2");
    expect(r.largeFolder).toBeGreaterThan(20);
  });
});
