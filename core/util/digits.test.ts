import { describe, expect, it } from "vitest";
import { withThousands } from "./digits.js";

describe("withThousands", () => {
  it("writes integers as English number formatting does", () => {
    for (const n of [0, 7, 999, 1000, 20_000, 100_000, 1_234_567, -1000, -999_999, 2 ** 40]) {
      expect(withThousands(n)).toBe(n.toLocaleString("en"));
    }
  });

  it("leaves a fraction as the number's own text", () => {
    expect(withThousands(1.5)).toBe("1.5");
  });
});
