import { describe, expect, it } from "vitest";
import {
  MAX_SHARED_LENGTH,
  MAX_SHARED_STRINGS,
  shareEach,
  shared,
  sharedStringCount,
} from "./shared-strings.js";

describe("shared strings", () => {
  it("keeps one copy of each short value, and none of a long one", () => {
    // Values no other test file shares: files that run before this one in the same worker (a Larder
    // opened on the demo folder) leave "Vegetarian" and its like in the process-wide table.
    const before = sharedStringCount();
    const [tag, yieldText] = [`Vegetarian ${process.pid}-${Date.now()}`, `4 servings ${Math.random()}`];
    const a = [tag, yieldText, tag, 3, null];
    shareEach(a);
    expect(a).toEqual([tag, yieldText, tag, 3, null]);
    expect(sharedStringCount()).toBe(before + 2);
    expect(shared("x".repeat(MAX_SHARED_LENGTH + 1))).toBe("x".repeat(MAX_SHARED_LENGTH + 1));
    expect(sharedStringCount()).toBe(before + 2);
  });

  it("stops taking new values once full, still answering each with itself", () => {
    for (let i = 0; sharedStringCount() < MAX_SHARED_STRINGS; i++) shared(`filler ${i}`);
    expect(shared("a value seen after the table filled")).toBe("a value seen after the table filled");
    expect(sharedStringCount()).toBe(MAX_SHARED_STRINGS);
  });
});
