import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { consoleLogger } from "../log/logger.js";
import { definePlugin } from "./define.js";
import { PluginInputError, PluginRegistry } from "./registry.js";
import type { ParserPlugin } from "./kinds.js";

const log = consoleLogger("silent");
const parser = (name: string, parse: ParserPlugin["parse"]) =>
  definePlugin<"parser">({ kind: "parser", name, parse });
const ctx = {} as Parameters<ParserPlugin["parse"]>[1];

describe("plugin registry", () => {
  it("finds a registered plugin by kind and name, and lists it as loaded", () => {
    const r = new PluginRegistry(log);
    expect(r.register(parser("brute", async () => []))).toBe(true);
    expect(r.get("parser", "brute")?.name).toBe("brute");
    expect(r.get("parser", "nlp")).toBeNull();
    expect(r.get("importer", "brute")).toBeNull();
    expect(r.list()).toEqual([
      { kind: "parser", name: "brute", source: "builtin", state: "loaded", error: null },
    ]);
  });

  it("refuses malformed plugins and a second plugin with the same name, and reports why", () => {
    const r = new PluginRegistry(log);
    expect(r.register(null, "x")).toBe(false);
    expect(r.register({ kind: "teleporter", name: "a" }, "y")).toBe(false);
    expect(r.register({ kind: "parser", name: "no-parse" }, "z")).toBe(false);
    expect(r.register({ kind: "notifier", name: "n", send() {}, schemes: [] }, "w")).toBe(false);
    r.register(parser("p", async () => []));
    expect(
      r.register(
        parser("p", async () => []),
        "dup",
      ),
    ).toBe(false);
    const failed = r.list().filter((s) => s.state === "failed");
    expect(failed.map((f) => f.error)).toEqual([
      expect.stringContaining("not a plugin object"),
      expect.stringContaining("kind must be one of"),
      expect.stringContaining("parse()"),
      expect.stringContaining("URL schemes"),
      expect.stringContaining("already registered"),
    ]);
  });

  it("disables a plugin from LARDER_PLUGINS that throws unexpectedly while used, and keeps the caller's process alive", async () => {
    const r = new PluginRegistry(log);
    const bad = parser("bad", async () => {
      throw new TypeError("boom");
    });
    r.register(bad, "./my-plugins/bad.js");
    await expect(r.use(bad, (p) => p.parse(["x"], ctx))).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining("disabled"),
    });
    expect(r.get("parser", "bad")).toBeNull();
    expect(r.list()[0]).toMatchObject({ state: "disabled", error: "boom" });
  });

  it("keeps a built-in plugin enabled when it throws: one bad input must not switch it off for everyone", async () => {
    const r = new PluginRegistry(log);
    let calls = 0;
    const flaky = parser("flaky", async () => {
      if (++calls === 1) throw new TypeError("Cannot read properties of null (reading 'id')");
      return [];
    });
    r.register(flaky);
    await expect(r.use(flaky, (p) => p.parse(["x"], ctx))).rejects.toMatchObject({
      status: 500,
      message: expect.stringMatching(/^The parser plugin 'flaky' failed: .*reading 'id'/),
    });
    expect(r.get("parser", "flaky")).not.toBeNull();
    await expect(r.use(flaky, (p) => p.parse(["x"], ctx))).resolves.toEqual([]);
    expect(r.list()[0]).toMatchObject({ state: "loaded", error: null });
  });

  it("answers input nested deeper than a reader recurses with a 422, and keeps the plugin", async () => {
    const r = new PluginRegistry(log);
    const nested = parser("nested", async () => {
      // A recursive walk over input nested far deeper than the stack allows.
      const walk = (x: unknown): number =>
        x && typeof x === "object" ? 1 + walk((x as { a: unknown }).a) : 0;
      let input: unknown = {};
      for (let i = 0; i < 1_000_000; i++) input = { a: input };
      walk(input);
      return [];
    });
    r.register(nested, "./my-plugins/nested.js");
    await expect(r.use(nested, (p) => p.parse(["x"], ctx))).rejects.toMatchObject({
      status: 422,
      message: "The input is nested too deeply to be read",
    });
    expect(r.get("parser", "nested")).not.toBeNull();
  });

  it("keeps a plugin enabled when it refuses an input with a PluginInputError", async () => {
    const r = new PluginRegistry(log);
    const picky = parser("picky", async () => {
      throw new PluginInputError("no recipe here", 400);
    });
    r.register(picky);
    await expect(r.use(picky, (p) => p.parse(["x"], ctx))).rejects.toMatchObject({ status: 400 });
    expect(r.get("parser", "picky")).not.toBeNull();
  });

  it("loads the documented example plugin from a path, and reports a module that fails to load", async () => {
    const dir = await mkdtemp(join(tmpdir(), "larder-plugins-"));
    await writeFile(join(dir, "throws.mjs"), "throw new Error('cannot start');\n");
    const r = new PluginRegistry(log);
    await r.load(
      [
        resolve("docs/examples/plugins/shout-parser/index.js"),
        "./throws.mjs",
        "larder-plugin-that-does-not-exist",
      ],
      dir,
    );
    const shout = r.get("parser", "shout");
    expect(shout).not.toBeNull();
    const [out] = await shout!.parse(["2 cups flour"], ctx);
    expect(out.ingredient.note).toBe("2 CUPS FLOUR");
    const failed = r.list().filter((s) => s.state === "failed");
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ name: "./throws.mjs", error: "cannot start" });
    await rm(dir, { recursive: true, force: true });
  });
});
