import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { passwordStrength } from "./password-strength.js";

describe("passwordStrength", () => {
  it("scores 0 for empty and for fewer than 6 characters", () => {
    expect(passwordStrength("")).toBe(0);
    expect(passwordStrength("Ab1!x")).toBe(0);
  });

  it("scores 0 for passwords containing a flagged word, in any case", () => {
    for (const pw of ["password", "myPASSWORD1", "Mealie2024!", "xxADMINxx", "qwerty123", "LoginNow!"])
      expect(passwordStrength(pw)).toBe(0);
  });

  it("gives 5 per new character and 5/n for the n-th repeat", () => {
    // Six distinct digits: 6 × 5 = 30, one class.
    expect(passwordStrength("123456")).toBe(30);
    // "aaaaaa": 5 + 5/2 + 5/3 + 5/4 + 5/5 + 5/6, one class.
    expect(passwordStrength("aaaaaa")).toBeCloseTo(5 * (1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5 + 1 / 6), 10);
  });

  it("adds 10 per character class beyond the first", () => {
    expect(passwordStrength("abcdef")).toBe(30);
    expect(passwordStrength("abcdE1")).toBe(30 + 20);
    expect(passwordStrength("abcE1!")).toBe(30 + 30);
  });

  it("subtracts 10 when no class is present, as the UI does, clamped at 0", () => {
    expect(passwordStrength("______")).toBeCloseTo(5 * (1 + 1 / 2 + 1 / 3 + 1 / 4 + 1 / 5 + 1 / 6) - 10, 10);
  });

  it("caps at 100", () => {
    expect(passwordStrength("3bYWcfYOwqxljqeOmQXTLlBwkrH6HV")).toBe(100);
  });

  it("counts UTF-16 code units, like the browser", () => {
    // "é" is one code unit: 6 distinct characters, lower case plus non-word (é is \W in JS): 30 + 10.
    expect(passwordStrength("abcdé.")).toBe(40);
  });

  it("imports nothing, so the UI can share it", async () => {
    const source = await readFile(new URL("./password-strength.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/^\s*import\s/m);
  });
});
