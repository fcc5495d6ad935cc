/**
 * The Ink path only runs when stdout is a terminal, so run the real CLI under `script`, which gives
 * it a pseudo-terminal.
 */
import { execSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_SHELL, larder, REPO, tempDir } from "../testing/run-cli.js";

function hasScript(): boolean {
  try {
    execSync("command -v script", { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const available = hasScript();
if (!available && process.env.CI !== "true")
  console.warn("skipping terminal tests: `script` (util-linux) is not installed");

describe.skipIf(!available && process.env.CI !== "true")("on a terminal", () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;
  beforeAll(async () => {
    tmp = await tempDir();
    dir = join(tmp.path, "data");
    expect((await larder(["init", dir])).exitCode).toBe(0);
    await writeFile(join(dir, "groups", "home", "recipes", "bad.md"), "---\nname: [unclosed\n---\n");
  });
  afterAll(() => tmp.cleanup());

  const inTerminal = (args: string, env: Record<string, string> = {}) =>
    execa("script", ["-qec", `stty rows 40 cols 160; ${CLI_SHELL} ${args}`, "/dev/null"], {
      cwd: REPO,
      reject: false,
      env: { LARDER_BCRYPT_ROUNDS: "4", ...env },
      stdin: "ignore",
    });

  it("draws a bordered table and still prints the summary after it", async () => {
    const res = await inTerminal(`check --data ${dir}`, { NO_COLOR: "1" });
    expect(res.exitCode).toBe(1);
    expect(res.stdout).toContain("╭");
    expect(res.stdout).toContain("groups/home/recipes/bad.md");
    expect(res.stdout).toContain("0 recipes; 1 broken file");
    // NO_COLOR: borders, but no colour codes.
    expect(res.stdout).not.toMatch(/\u001b\[3\dm/);
  });

  it("keeps --json free of terminal drawing", async () => {
    const res = await inTerminal(`check --data ${dir} --json`);
    expect(res.stdout).not.toContain("╭");
    expect(res.stdout).toContain('"broken"');
  });
});
