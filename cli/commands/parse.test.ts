import { describe, expect, it } from "vitest";
import { json, larder } from "../testing/run-cli.js";

describe("larder parse", () => {
  it("prints quantity, unit, food and note for each line", async () => {
    const res = await larder(["parse", "2 cups flour, sifted", "3 garlic cloves, crushed"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    expect(res.stdout).toMatch(/^quantity\s+unit\s+food\s+note\s+confidence$/m);
    expect(res.stdout).toMatch(/^2\s+cup\s+.*flour\s+sifted\s+[\d.]+$/m);
    expect(res.stdout).toMatch(/^3\s+clove\s+garlic\s+crushed/m);
  });

  it("prints Mealie's ParsedIngredient list with --json, with the parser chosen by --parser", async () => {
    const res = await larder(["parse", "--json", "--parser", "brute", "1 1/2 tsp garam masala"]);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const [p] = json<
      Array<{
        confidence: { average: number | null };
        ingredient: { quantity: number; unit: { name: string }; food: { name: string } };
      }>
    >(res);
    expect(p.ingredient).toMatchObject({
      quantity: 1.5,
      unit: { name: "teaspoon" },
      food: { name: "garam masala" },
    });
    expect(p.confidence.average).toBeNull();
  });

  it("refuses an unknown parser and an empty call as invalid input", async () => {
    expect((await larder(["parse", "--parser", "crf", "1 egg"])).exitCode).toBe(2);
    expect((await larder(["parse"], { input: "" })).exitCode).toBe(2);
  });
});
