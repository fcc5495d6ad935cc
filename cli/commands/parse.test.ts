import { describe, expect, it } from "vitest";
import { execa } from "execa";
import { CLI_SHELL, json, larder } from "../testing/run-cli.js";

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

  it("prints a large --json document whole into a pipe, and ends quietly when the reader stops reading", async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `${(i % 9) + 1} cups flour number ${i}, sifted`);
    const res = await larder(["parse", "--json", "--parser", "brute"], { input: lines.join("\n") });
    expect(res.exitCode, String(res.stderr).slice(0, 500)).toBe(0);
    // More than a pipe holds (64 KiB): an exit before it drained cut the document short.
    expect(String(res.stdout).length).toBeGreaterThan(256 * 1024);
    expect(json<unknown[]>(res)).toHaveLength(1000);
    const head = await execa("sh", ["-c", `${CLI_SHELL} parse --json --parser brute | head -c 10`], {
      input: lines.join("\n"),
      reject: false,
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(head.stdout).toHaveLength(10);
    expect(head.stderr).not.toMatch(/EPIPE|Unhandled/);
  });

  it("refuses an unknown parser and an empty call as invalid input", async () => {
    expect((await larder(["parse", "--parser", "crf", "1 egg"])).exitCode).toBe(2);
    expect((await larder(["parse"], { input: "" })).exitCode).toBe(2);
  });

  it("stops reading a stream that never ends, with exit 2", async () => {
    const res = await larder(["parse"], { inputFile: "/dev/zero" });
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("stdin holds more than 16 MB: too much for ingredient lines");
  });
});
