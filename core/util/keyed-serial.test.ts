import { describe, expect, it } from "vitest";
import { KeyedSerial } from "./keyed-serial.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("KeyedSerial", () => {
  it("runs tasks of one key in order, each after the one before has finished", async () => {
    const serial = new KeyedSerial();
    const order: string[] = [];
    const gate = deferred();
    const a = serial.run("r1", async () => {
      order.push("a start");
      await gate.promise;
      order.push("a end");
    });
    const b = serial.run("r1", async () => {
      order.push("b");
    });
    await Promise.resolve();
    expect(order).toEqual(["a start"]);
    gate.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(["a start", "a end", "b"]);
  });

  it("runs tasks of different keys side by side", async () => {
    const serial = new KeyedSerial();
    const gate = deferred();
    const slow = serial.run("r1", () => gate.promise);
    const other = await serial.run("r2", async () => "done");
    expect(other).toBe("done");
    gate.resolve();
    await slow;
  });

  it("gives each caller its own failure and goes on with the next task", async () => {
    const serial = new KeyedSerial();
    const failed = serial.run("r1", () => Promise.reject(new Error("boom")));
    const next = serial.run("r1", async () => 42);
    await expect(failed).rejects.toThrow("boom");
    await expect(next).resolves.toBe(42);
    await Promise.resolve();
    await Promise.resolve();
    expect(serial.size).toBe(0);
  });
});
