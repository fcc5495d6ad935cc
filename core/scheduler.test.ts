import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startScheduler, type Job } from "./scheduler.js";
import type { Larder } from "./larder.js";

const fakeLarder = { log: { info() {}, warn() {}, error() {} } } as unknown as Larder;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

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
        // Each run outlasts three intervals: the ticks during it must be skipped.
        await new Promise((r) => setTimeout(r, 35));
        concurrent--;
        runs++;
      },
    };
    const stop = startScheduler(fakeLarder, [job]);
    await vi.advanceTimersByTimeAsync(9);
    expect(runs + concurrent).toBe(0); // the first run waits one interval
    // Runs start at 10, 50, 90, ... (the first tick after the previous run ended) and last 35 ms.
    await vi.advanceTimersByTimeAsync(191);
    expect(maxConcurrent).toBe(1);
    expect(runs).toBe(4);
    stop();
    const after = runs + concurrent;
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(after); // a run in progress ends; none starts
  });

  it("keeps running after a job fails, and logs the failure", async () => {
    const errors: string[] = [];
    const larder = {
      log: { info() {}, warn() {}, error: (m: string) => errors.push(m) },
    } as unknown as Larder;
    let calls = 0;
    const stop = startScheduler(larder, [
      {
        name: "flaky",
        everyMs: 10,
        run: async () => {
          calls++;
          throw new Error("boom");
        },
      },
    ]);
    await vi.advanceTimersByTimeAsync(80);
    stop();
    expect(calls).toBe(8);
    expect(errors).toHaveLength(8);
    expect(errors[0]).toContain("flaky");
  });
});
