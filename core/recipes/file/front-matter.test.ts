import { describe, expect, it } from "vitest";
import matter from "gray-matter";
import { VOCAB } from "./test-support.js";
import { RecipeFileError, parseRecipeFile } from "./recipe-file.js";
import { readFrontMatter, writeFrontMatter } from "./front-matter.js";

const parse = (text: string) => parseRecipeFile(text, VOCAB);

function refusal(text: string): RecipeFileError {
  try {
    parse(text);
  } catch (e) {
    if (e instanceof RecipeFileError) return e;
    throw e;
  }
  throw new Error("expected the file to be refused");
}

declare global {
  var __larderPwned: string | undefined;
}

describe("hostile front matter", () => {
  const payload = (lang: string) =>
    `---${lang}\n{ name: (globalThis.__larderPwned = "${lang}", "x") }\n---\nbody\n`;

  it("refuses a ---js block without evaluating it", () => {
    globalThis.__larderPwned = undefined;
    for (const lang of ["js", "javascript", " js", "JS"]) {
      expect(refusal(payload(lang)).message).toMatch(/refused/);
    }
    expect(globalThis.__larderPwned).toBeUndefined();
  });

  it("uses a payload that gray-matter's default engine would run (so the test above means something)", () => {
    globalThis.__larderPwned = undefined;
    matter(payload("js"), { language: "yaml" });
    expect(globalThis.__larderPwned).toBe("js");
    globalThis.__larderPwned = undefined;
  });

  it("accepts YAML only", () => {
    expect(refusal('---json\n{"name": "x"}\n---\n').line).toBe(1);
    expect(refusal("---toml\nname = 'x'\n---\n")).toBeInstanceOf(RecipeFileError);
    expect(parse("---yaml\nname: x\n---\n").name).toBe("x");
  });

  it("refuses a YAML alias bomb, fast", () => {
    let bomb = "---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (let i = 1; i < 12; i++)
      bomb += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(", ")}]\n`;
    bomb += "name: boom\n---\n";
    const t0 = performance.now();
    expect(refusal(bomb).message).toMatch(/alias/i);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("refuses custom and language-specific tags", () => {
    const fn = refusal('---\nid: x\nname: !!js/function "function () { return 1 }"\n---\n');
    expect(fn.message).toMatch(/tag/);
    expect(fn.line).toBe(3);
    expect(refusal("---\nname: !local x\n---\n").message).toMatch(/tag/);
    expect(refusal("---\nname: !!binary aGVsbG8=\n---\n").message).toMatch(/tag/);
    expect(parse("---\nname: !!str 12\n---\n").name).toBe("12");
  });

  it("reports broken YAML as a typed error with a line number", () => {
    const e = refusal("---\nname: Soup\nrecipeYield: [2\n---\n");
    expect(e).toBeInstanceOf(RecipeFileError);
    expect(e.line).toBeGreaterThanOrEqual(3);
    // Said once, at the front: no "at line 3, column 1:" left dangling after the reason.
    expect(e.message).toMatch(/^line \d+: [^\n]*[^:]$/);
    expect(e.message).not.toMatch(/at line \d+/);
    expect(refusal("---\nname: a\nname: b\n---\n").line).toBe(3);
    expect(refusal("---\n- a\n- b\n---\n").message).toMatch(/mapping/);
  });

  it("keeps dates as strings and does not let __proto__ pollute anything", () => {
    const doc = parse("---\nname: 2026-11-21\ndateAdded: 2026-11-21\nextras:\n  __proto__: x\n---\n");
    expect(doc.name).toBe("2026-11-21");
    expect(doc.dateAdded).toBe("2026-11-21");
    expect(Object.prototype.hasOwnProperty.call(doc.extras, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(doc.extras)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("never fills gray-matter's unbounded cache", () => {
    const text = `---\nname: cache probe ${Math.random()}\n---\n`;
    readFrontMatter(text);
    expect((matter as unknown as { cache: Record<string, unknown> }).cache[text]).toBeUndefined();
  });
});

describe("writeFrontMatter", () => {
  it("quotes strings only when they would read as something else", () => {
    const out = writeFrontMatter([
      { key: "name", value: "Pasta: the sequel" },
      { key: "a", value: "plain words" },
      { key: "b", value: "123" },
      { key: "c", value: "two\nlines" },
      { key: "tags", value: ["x, y", "z"], flow: true },
    ]);
    expect(out).toBe(
      '---\nname: "Pasta: the sequel"\na: plain words\nb: "123"\nc: "two\\nlines"\ntags: ["x, y", z]\n---\n',
    );
  });
});
