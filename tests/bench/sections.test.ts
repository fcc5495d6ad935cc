import { describe, expect, it } from "vitest";
import { markedSections, withSections } from "../../bench/sections.js";

describe("BENCHMARKS.md sections", () => {
  it("keeps every marked section when the rest of the file is rewritten", () => {
    const before =
      "# Old\n\n<!-- a:start -->\nA\n<!-- a:end -->\n\ntext\n\n<!-- bench:load:start -->\nL\n<!-- bench:load:end -->\n";
    const kept = markedSections(before);
    expect(kept).toHaveLength(2);
    const after = withSections("# New\n", kept);
    expect(after).toContain("# New");
    expect(after).toContain("<!-- a:start -->\nA\n<!-- a:end -->");
    expect(after).toContain("<!-- bench:load:start -->\nL\n<!-- bench:load:end -->");
    expect(withSections("x <!-- a:start -->old<!-- a:end --> y", kept.slice(0, 1))).toBe(
      "x <!-- a:start -->\nA\n<!-- a:end --> y",
    );
  });
});
