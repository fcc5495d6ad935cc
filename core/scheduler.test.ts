import { describe, expect, it } from "vitest";
import { startScheduler, type Job } from "./scheduler.js";
import type { Larder } from "./larder.js";

const fakeLarder = { log: { info() {}, warn() {}, error() {} } } as unknown as Larder;

describe("scheduler", () => {
  it("runs each job every interval, never two runs of one job at once, and stops", async () => {
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const job: Job = {
      name: "slow",
      everyMs: 10,
      run: async () => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((r) => setTimeout(r, 35));
        concurrent--;
        runs++;
      },
    };
    const stop = startScheduler(fakeLarder, [job]);
    await new Promise((r) => setTimeout(r, 200));
    stop();
    const after = runs;
    await new Promise((r) => setTimeout(r, 80));
    expect(after).toBeGreaterThanOrEqual(2);
    expect(maxConcurrent).toBe(1);
    expect(runs - after).toBeLessThanOrEqual(1);
  });

  it("keeps running after a job fails, and logs the failure", async () => {
    const errors: string[] = [];
    const larder = { log: { info() {}, warn() {}, error: (m: string) => errors.push(m) } } as unknown as Larder;
    let calls = 0;
    const stop = startScheduler(larder, [{ name: "flaky", everyMs: 10, run: async () => { calls++; throw new Error("boom"); } }]);
    await new Promise((r) => setTimeout(r, 80));
    stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toContain("flaky");
  });
});
