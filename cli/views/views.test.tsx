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

  it("marks a status with its symbol", () => {
    expect(render(<Status kind="ok" text="all good" />).lastFrame()).toContain("✔ all good");
    expect(render(<Status kind="error" text="2 broken files" />).lastFrame()).toContain("✘ 2 broken files");
  });
});
