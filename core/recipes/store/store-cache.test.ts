import { describe, expect, it } from "vitest";
import { saveDelayAfterChange } from "./store-cache.js";

const MIN = 60_000;

describe("when the warm-start cache is written after a change", () => {
  it("waits for a quiet spell when this process has not written the cache yet", () => {
    expect(saveDelayAfterChange(1_000_000, null, 1)).toBe(5_000);
  });

  it("waits until ten minutes after its last write when few recipes changed", () => {
    const saved = 1_000_000;
    expect(saveDelayAfterChange(saved + 1 * MIN, saved, 3)).toBe(9 * MIN);
    expect(saveDelayAfterChange(saved + 9.99 * MIN, saved, 3)).toBe(5_000);
    expect(saveDelayAfterChange(saved + 60 * MIN, saved, 3)).toBe(5_000);
  });

  it("writes after the quiet spell alone once many recipes changed", () => {
    expect(saveDelayAfterChange(1_000_000 + MIN, 1_000_000, 500)).toBe(5_000);
  });
});
