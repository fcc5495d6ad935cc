import { describe, expect, it } from "vitest";
import { WriteGate } from "./write-gate.js";

/** A task that records when it starts and finishes, and finishes when told. */
function task(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  return {
    run: async () => {
      log.push(`${name}+`);
      await done;
      log.push(`${name}-`);
    },
    finish,
  };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe("WriteGate", () => {
  it("runs saves of different keys side by side, and saves of one key one after the other", async () => {
    const log: string[] = [];
    const gate = new WriteGate();
    const a1 = task(log, "a1");
    const b = task(log, "b");
    const a2 = task(log, "a2");
    const runs = [gate.beside("a", a1.run), gate.beside("b", b.run), gate.beside("a", a2.run)];
    await turns();
    expect(log).toEqual(["a1+", "b+"]);
    a1.finish();
    await turns();
    expect(log).toEqual(["a1+", "b+", "a1-", "a2+"]);
    b.finish();
    a2.finish();
    await Promise.all(runs);
  });

  it("runs lone work after every save asked for before it, and saves asked for after it wait for it", async () => {
    const log: string[] = [];
    const gate = new WriteGate();
    const a = task(log, "a");
    const scan = task(log, "scan");
    const b = task(log, "b");
    const runs = [gate.beside("a", a.run), gate.alone(scan.run), gate.beside("b", b.run)];
    await turns();
    expect(log).toEqual(["a+"]);
    a.finish();
    await turns();
    expect(log).toEqual(["a+", "a-", "scan+"]);
    scan.finish();
    await turns();
    expect(log).toEqual(["a+", "a-", "scan+", "scan-", "b+"]);
    b.finish();
    await Promise.all(runs);
    await gate.idle();
  });

  it("goes on after a failure, and idle waits for everything asked for", async () => {
    const gate = new WriteGate();
    const failed = gate.beside("a", () => Promise.reject(new Error("disk full")));
    const lone = gate.alone(async () => "after");
    const again = gate.beside("a", async () => "again");
    await expect(failed).rejects.toThrow("disk full");
    expect(await lone).toBe("after");
    expect(await again).toBe("again");
    await expect(gate.idle()).resolves.toBeUndefined();
  });
});
