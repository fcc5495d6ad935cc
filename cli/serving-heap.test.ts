import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { LARGE_FOLDER_RECIPES, servingHeapFlag, useServingHeapGrowth } from "./serving-heap.js";

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
