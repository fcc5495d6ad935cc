/** Amounts as people write them, rewritten for Mealie's algorithm (decision 0231); lines written for these tests. */
import { describe, expect, it } from "vitest";
import { rewriteAmounts } from "./amounts.js";

const isUnit = (w: string) => ["g", "kg", "ml", "oz", "lb", "tbsp", "cups"].includes(w.toLowerCase());

describe("rewriteAmounts", () => {
  it("reads a range at the start as its lower end, and keeps the upper", () => {
    expect(rewriteAmounts("4-5 cups stock", isUnit)).toEqual({ text: "4 cups stock", max: 5 });
    expect(rewriteAmounts("4–5 cups stock", isUnit)).toEqual({ text: "4 cups stock", max: 5 });
    expect(rewriteAmounts("4 to 5 banana shallots", isUnit)).toEqual({ text: "4 banana shallots", max: 5 });
    expect(rewriteAmounts("4 or 5 banana shallots", isUnit)).toEqual({ text: "4 banana shallots", max: 5 });
    expect(rewriteAmounts("4 - 5 tbsp clover honey", isUnit)).toEqual({
      text: "4 tbsp clover honey",
      max: 5,
    });
    expect(rewriteAmounts("¼-½ cups milk", isUnit)).toEqual({ text: "¼ cups milk", max: 0.5 });
    expect(rewriteAmounts("2 ½–3 cups rice", isUnit)).toEqual({ text: "2 ½ cups rice", max: 3 });
  });

  it("reads one and a half however it is written, and a fraction slash as a fraction", () => {
    expect(rewriteAmounts("2-1/4 cups rice", isUnit)).toEqual({ text: "2 1/4 cups rice", max: null });
    expect(rewriteAmounts("2 and 1/4 cups rice", isUnit)).toEqual({ text: "2 1/4 cups rice", max: null });
    expect(rewriteAmounts("3\u20444 cups rice", isUnit).text).toBe("3/4 cups rice");
    expect(rewriteAmounts(".75 cups rice", isUnit).text).toBe("0.75 cups rice");
  });

  it("parts a unit glued to its number, and leaves an imperial equivalent out", () => {
    expect(rewriteAmounts("300g rice", isUnit).text).toBe("300 g rice");
    expect(rewriteAmounts("1.5kg lamb shoulder", isUnit).text).toBe("1.5 kg lamb shoulder");
    expect(rewriteAmounts("300g/10½oz wild rice mix", isUnit).text).toBe("300 g wild rice mix");
    expect(rewriteAmounts("700g/1lb 9oz lamb", isUnit).text).toBe("700 g lamb");
    expect(rewriteAmounts("400ml/14fl oz stock", isUnit).text).toBe("400 ml stock");
    // Letters that are no unit stay as written.
    expect(rewriteAmounts("2nd batch of dough", isUnit).text).toBe("2nd batch of dough");
  });

  it("reads equivalents and glued units written with spaces, ranges and a times sign (decision 0251)", () => {
    expect(rewriteAmounts("200 g / 7 oz chocolate", isUnit).text).toBe("200 g chocolate");
    expect(rewriteAmounts("150-200ml/5-7fl oz water", isUnit)).toEqual({ text: "150 ml water", max: 200 });
    expect(rewriteAmounts("100-150ml water", isUnit)).toEqual({ text: "100 ml water", max: 150 });
    expect(rewriteAmounts("1x400g tin tomatoes", isUnit).text).toBe("1 x 400 g tin tomatoes");
  });
});
