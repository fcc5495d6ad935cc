/**
 * The layers of ARCHITECTURE §1, checked on the source (issue 12): web/ and cli/ are adapters over
 * core's services. They never hold core's storage — documents, the recipe store, the group registry and
 * its GroupData/HouseholdData — so scoping and cascades cannot drift into a route or a command. Core
 * never sees a URL: lists take a typed ListQuery. Core's services receive the parts they use, not the
 * Larder. And the CLI declares `--data` once.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "testing") out.push(...sources(path));
    } else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

/** What an adapter must not touch, each with the reason a reader gets when the test fails. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/from "[./]*core\/storage\/json-doc(\.js)?"/, "imports core's JSON documents"],
  [/from "[./]*core\/recipes\/store\//, "imports the recipe store"],
  [/from "[./]*core\/groups\/registry(\.js)?"/, "imports the group registry"],
  [/\b(GroupData|HouseholdData)\b/, "names the registry's GroupData/HouseholdData"],
  [/\.doc\.data\b/, "reads a core document's data"],
  [/\blarder\.groups\./, "reaches into the group registry (use larder.directory or a service)"],
  [/\brecipes\.store\b/, "reaches into the recipe store (use a RecipesService method)"],
];

describe("web/ and cli/ are adapters over core", () => {
  it("hold none of core's storage: documents, the recipe store, the registry", () => {
    const found: string[] = [];
    for (const file of [...sources("web"), ...sources("cli")]) {
      const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        for (const [re, why] of FORBIDDEN)
          if (re.test(line)) found.push(`${file}:${i + 1} ${why}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it("finds the adapters' sources (the scan is not vacuous)", () => {
    expect(sources("web").length).toBeGreaterThan(50);
    expect(sources("cli").length).toBeGreaterThan(20);
    // And it would notice a breach: the rule matches what it forbids.
    expect(FORBIDDEN.some(([re]) => re.test("const g: GroupData = x;"))).toBe(true);
    expect(FORBIDDEN.some(([re]) => re.test(`import { X } from "../../core/recipes/store/index.js";`))).toBe(
      true,
    );
  });

  it("never hands core a URL: lists take a typed ListQuery, parsed at the API's edge", () => {
    // A parameter typed URL or URLSearchParams, on one line or across a parameter list.
    const urlParam = /\b\w+\??:\s*(URL|URLSearchParams)\s*[,)]/g;
    const found: string[] = [];
    for (const file of sources("core")) {
      // Fetching pages is what core/net is for; the worker pool names its own module file.
      if (file.startsWith(join("core", "net"))) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const m of text.matchAll(urlParam)) found.push(`${file}: takes a ${m[1]}: ${m[0]}`);
    }
    for (const file of [...sources("web"), ...sources("cli")]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (text.includes("larder.invalid")) found.push(`${file}: fabricates a URL to call core`);
    }
    expect(found).toEqual([]);
    expect("list(actor: Actor, url: URL) {".match(urlParam)).not.toBeNull();
  });

  it("gives core's services the parts they use, never the whole Larder", () => {
    // The Larder composes (core/larder.ts, core/open-services.ts); a service that imported it could
    // reach every other service, and the compiler could no longer order their construction.
    const importers = sources("core").filter(
      (f) =>
        f !== join("core", "larder.ts") && /from "[./]*larder\.js"/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(importers).toEqual([]);
    // No field is promised with `!`: each is assigned where it is declared or in the constructor.
    const larder = readFileSync(join(ROOT, "core", "larder.ts"), "utf8");
    expect(larder.match(/^\s*(?:private |readonly |public )*#?\w+!:/gm)).toBeNull();
  });

  it("writes each of the CLI's user, group, household, plan, list and import commands once, over withCalls", () => {
    // One implementation: core in this process or the running server's API answer the same calls
    // (cli/calls.ts); a command that picked its own way would be a second implementation.
    const written = sources("cli").filter((f) =>
      /^cli\/(commands\/(user|group|household|plan|list)\/|commands\/import|users\/|week\/)/.test(
        relative(ROOT, join(ROOT, f)).split("\\").join("/"),
      ),
    );
    expect(written.length).toBeGreaterThan(10);
    const own = written.filter((f) =>
      /\b(withLock|withLarder|liveServer)\(/.test(readFileSync(join(ROOT, f), "utf8")),
    );
    expect(own).toEqual([]);
  });

  it("declares the CLI's --data option once", () => {
    const declared = sources("cli").filter((f) => readFileSync(join(ROOT, f), "utf8").includes('"--data <'));
    expect(declared.map((f) => relative(ROOT, join(ROOT, f)))).toEqual(["cli/context.ts"]);
  });
});
