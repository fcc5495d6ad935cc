/**
 * The `larder` program without its commands: name, version, the global --json, and how usage errors
 * end. cli/commands.ts adds every command; `larder serve` adds only its own (cli/index.ts), so a
 * server's start does not load and declare the other commands (decision 0163).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { isJsonMode, printJson, printLine, setJsonMode } from "./output.js";

/** package.json's version, found from source (cli/) or from dist/cli/. */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "larder" && pkg.version) return pkg.version;
    } catch {
      // not here: look one folder up
    }
    dir = dirname(dir);
  }
  return "0.0.0";
}

export function programShell(): Command {
  return (
    new Command("larder")
      .description("Larder: a file-first recipe manager with a Mealie-compatible API")
      // Not commander's .version(): it prints plain text even under --json, which a script cannot parse.
      .option("-V, --version", "output the version number")
      .on("option:version", printVersion)
      .option("--json", "print one JSON document on stdout (for scripts)")
      .showSuggestionAfterError()
      // Throw instead of exiting, so usage errors get exit code 2 like other invalid input.
      .exitOverride()
      .hook("preAction", (_program, action) => {
        setJsonMode(Boolean(action.optsWithGlobals().json));
      })
  );
}

/**
 * `--version`: the bare version for a person, a JSON document under --json (index.ts sets JSON mode from
 * argv before parsing, so `--version --json` in either order is seen). Ends the parse as commander's own
 * version option does: an exit-0 CommanderError.
 */
function printVersion(): never {
  const v = version();
  if (isJsonMode())
    printJson({ version: v, node: process.versions.node, platform: process.platform, arch: process.arch });
  else printLine(v);
  throw new CommanderError(0, "commander.version", v);
}
