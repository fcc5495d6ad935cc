import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { Status } from "./status.js";
import { Table } from "./table.js";

describe("terminal views", () => {
  it("draws a bordered table with a header and every cell", () => {
    const { lastFrame } = render(
      <Table
        columns={["username", "email"]}
        rows={[
          ["alice", "alice@example.com"],
          ["bob", ""],
        ]}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("╭");
    expect(frame).toMatch(/username\s+email/);
    expect(frame).toMatch(/alice\s+alice@example\.com/);
    expect(frame).toContain("bob");
  });

  it("fits an 80-column terminal: a long cell wraps inside its column, every cell stays on its own row", () => {
    const problem =
      "line 2: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 14";
    const { lastFrame } = render(
      <Table
        columns={["file", "line", "problem"]}
        rows={[
          ["groups/home/recipes/latin1.md", "", "the file is not UTF-8 text"],
          ["groups/home/recipes/bad.md", "2", problem],
        ]}
        width={80}
      />,
    );
    const frame = (lastFrame() ?? "").split("\n");
    for (const line of frame) expect(Array.from(line).length).toBeLessThanOrEqual(80);
    expect(frame.find((l) => l.includes("latin1.md"))).not.toMatch(/\s2\s/);
    expect(frame.find((l) => l.includes("bad.md"))).toMatch(/bad\.md\s+2\s+line 2:/);
    // Nothing cut: every word of the long cell is on the screen.
    const text = frame.join(" ").replace(/[│╭╮╰╯─]/g, " ");
    for (const word of problem.split(" ")) expect(text).toContain(word);
  });

  it("marks a status with its symbol", () => {
    expect(render(<Status kind="ok" text="all good" />).lastFrame()).toContain("✔ all good");
    expect(render(<Status kind="error" text="2 broken files" />).lastFrame()).toContain("✘ 2 broken files");
  });
});
