import { describe, expect, it } from "vitest";
import { Limiter, Overloaded } from "./limiter.js";

function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}

describe("the request limiter", () => {
  it("runs at most `concurrency` at a time and the rest in arrival order, none overtaking", async () => {
    const l = new Limiter(2, 10);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      l.run(async () => {
        started.push(i);
        await g.wait;
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect(l.waiting).toBe(3);
    gates[1].open();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuses at once, with a retry hint, when the queue is full; a failed task frees its slot", async () => {
    const l = new Limiter(1, 1);
    const g = gate();
    const first = l.run(() => g.wait);
    const second = l.run(async () => "second");
    await expect(l.run(async () => "third")).rejects.toBeInstanceOf(Overloaded);
    g.open();
    await first;
    expect(await second).toBe("second");
    await expect(l.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await l.run(async () => "after")).toBe("after");
  });
});
