import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { json, larder, REPO } from "./testing/run-cli.js";

describe("larder (the program)", () => {
  it("prints package.json's version", async () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    const res = await larder(["--version"]);
    expect(res.exitCode).toBe(0);
    expect(res.stdout.trim()).toBe(pkg.version);
  });

  it("prints the version as one JSON document under --json, before or after --version", async () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    for (const args of [
      ["--version", "--json"],
      ["--json", "-V"],
    ]) {
      const res = await larder(args);
      expect(res.exitCode, args.join(" ")).toBe(0);
      expect(json(res)).toEqual({
        version: pkg.version,
        node: process.versions.node,
        platform: process.platform,
        arch: process.arch,
      });
    }
  });

  it("lists every command in --help", async () => {
    const res = await larder(["--help"]);
    expect(res.exitCode).toBe(0);
    for (const cmd of ["serve", "init", "check", "user", "config"]) expect(res.stdout).toContain(cmd);
  });

  it("exits 2 on a usage error, with a JSON error under --json", async () => {
    const unknown = await larder(["frobnicate"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown command");
    const option = await larder(["user", "list", "--nope", "--json"]);
    expect(option.exitCode).toBe(2);
    expect(json<{ error: { exitCode: number } }>(option).error.exitCode).toBe(2);
    const missing = await larder(["init"]);
    expect(missing.exitCode).toBe(2);
  });

  it("parses `serve` alone (its one-command program) with the same usage errors and help", async () => {
    const unknown = await larder(["serve", "--nope", "--json"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--nope'");
    expect(json<{ error: { exitCode: number } }>(unknown).error.exitCode).toBe(2);
    const help = await larder(["serve", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--port <n>");
  });

  it("rejects a bad port before touching any folder", async () => {
    const res = await larder(["serve", "--port", "70000", "--data", "/nonexistent/larder-test"]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain("Invalid port");
  });

  it("answers --json with no subcommand with a readable error, not commander's internal token", async () => {
    const res = await larder(["--json", "user"]);
    expect(res.exitCode).toBe(2);
    expect(json<{ error: { message: string } }>(res).error.message).toBe(
      "a command is required (see --help)",
    );
  });

  it("checks LARDER_PORT as it checks --port", async () => {
    for (const bad of ["abc", "99999", "0"]) {
      const res = await larder(["serve", "--data", "/nonexistent/larder-test"], {
        env: { LARDER_PORT: bad },
      });
      expect(res.exitCode, bad).toBe(2);
      expect(res.stderr).toContain(`Invalid port in LARDER_PORT: ${bad} (1-65535)`);
    }
  });

  it("ends `init` under a parent that refuses new folders with an error, not an endless retry", async () => {
    const res = await larder(["init", "/proc/larder-nope/x"]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain("ENOENT");
  });
});
