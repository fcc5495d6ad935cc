/** Fenced code blocks in a recipe's text: which lines they hold, and that they survive the file (decision 0226). */
import { describe, expect, it } from "vitest";
import { emptyRecipeDoc } from "../doc.js";
import { fencedLines } from "./fences.js";
import { parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";
import { VOCAB } from "./test-support.js";

describe("fencedLines", () => {
  it("marks a closed fence and its lines, for backticks and tildes, and nothing without a fence", () => {
    expect(fencedLines(["a", "## b"])).toBeNull();
    expect(fencedLines(["x", "```js", "## y", "```", "z"])).toEqual([false, true, true, true, false]);
    expect(fencedLines(["~~~", "```", "~~~"])).toEqual([true, true, true]);
    // A closer is at least as long as its opener.
    expect(fencedLines(["````", "```", "````"])).toEqual([true, true, true]);
  });

  it("leaves an unclosed fence as text, so it cannot swallow the sections after it", () => {
    expect(fencedLines(["```", "## Ingredients", "- 1 egg"])).toEqual([false, false, false]);
    expect(fencedLines(["```x```", "## a", "```"])).toEqual([false, false, false]);
  });

  it("stays linear on a hostile text of many unclosed fences", () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => (i % 2 ? "```" : "``````````x"));
    const t0 = performance.now();
    fencedLines(lines);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe("a recipe file with code in its text", () => {
  const file = [
    "---",
    "name: Sourdough",
    "---",
    "Starter notes below.",
    "",
    "## Ingredients",
    "- 500 g flour",
    "",
    "## Notes",
    "",
    "### Wine pairing",
    "Try a riesling.",
    "",
    "```",
    "## not a heading",
    "### nor this",
    "# a shell comment",
    "```",
    "",
  ].join("\n");

  it("reads a heading inside a fence as code, not as a section or a note", () => {
    const doc = parseRecipeFile(file, VOCAB);
    expect(doc.ingredients).toHaveLength(1);
    expect(doc.notes).toEqual([
      {
        title: "Wine pairing",
        text: "Try a riesling.\n\n```\n## not a heading\n### nor this\n# a shell comment\n```",
      },
    ]);
  });

  it("writes the code back as it stands, and reads back the same text", () => {
    const doc = parseRecipeFile(file, VOCAB);
    const written = serializeRecipeFile(doc, VOCAB);
    expect(written).toContain("```\n## not a heading\n### nor this\n# a shell comment\n```");
    expect(parseRecipeFile(written, VOCAB).notes).toEqual(doc.notes);
  });

  it("escapes a fence left open in a description, so it pairs with nothing in the notes", () => {
    const doc = {
      ...emptyRecipeDoc("Stray"),
      description: "Open ``` here\n```",
      notes: [{ title: "Code", text: "```\n## x\n```" }],
    };
    const back = parseRecipeFile(serializeRecipeFile(doc, VOCAB), VOCAB);
    expect(back.description).toBe(doc.description);
    expect(back.notes).toEqual(doc.notes);
  });
});
