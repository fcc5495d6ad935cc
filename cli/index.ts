#!/usr/bin/env node
/**
 * `larder`: a thin shell over core (style.md, CLIs). Each command lives in cli/commands/; this file
 * wires them up, sets the output mode, and turns every error into a message and an exit code.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { registerCheck } from "./commands/check.js";
import { registerConfig } from "./commands/config.js";
import { registerInit } from "./commands/init.js";
import { registerServe } from "./commands/serve.js";
import { registerStats } from "./commands/stats.js";
import { registerPlugins } from "./commands/plugins.js";
import { registerParse } from "./commands/parse.js";
import { registerUser } from "./commands/user/index.js";
import { registerGroup } from "./commands/group/index.js";
import { registerHousehold } from "./commands/household/index.js";
import { registerPlan } from "./commands/plan/index.js";
import { registerList } from "./commands/list/index.js";
import { registerImport } from "./commands/import.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerTui } from "./tui/command.js";
import { registerBackup } from "./commands/backup.js";
import { registerExport } from "./commands/export.js";
import { registerMaintenance } from "./commands/maintenance.js";
import { registerHistory } from "./commands/history.js";
import { isLongRunning } from "./context.js";
import { EXIT, fail, isJsonMode, printJson, setJsonMode } from "./output.js";

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

export function buildProgram(): Command {
  const program = new Command("larder")
    .description("Larder: a file-first recipe manager with a Mealie-compatible API")
    .version(version(), "-V, --version")
    .option("--json", "print one JSON document on stdout (for scripts)")
    .showSuggestionAfterError()
    // Throw instead of exiting, so usage errors get exit code 2 like other invalid input.
    .exitOverride()
    .hook("preAction", (_program, action) => {
      setJsonMode(Boolean(action.optsWithGlobals().json));
    });
  registerServe(program);
  registerInit(program);
  registerCheck(program);
  registerUser(program);
  registerGroup(program);
  registerHousehold(program);
  registerPlan(program);
  registerList(program);
  registerImport(program);
  registerConfig(program);
  registerStats(program);
  registerPlugins(program);
  registerParse(program);
  registerMigrate(program);
  registerTui(program);
  registerBackup(program);
  registerExport(program);
  registerMaintenance(program);
  registerHistory(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  // Ink's chalk ignores NO_COLOR (https://no-color.org) but honours FORCE_COLOR=0; it loads lazily, after this.
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = "0";
  const program = buildProgram();
  // `larder` alone on a terminal opens the app; without a terminal it prints the help as before.
  if (argv.length <= 2 && process.stdin.isTTY && process.stdout.isTTY) argv = [...argv, "tui"];
  // The global --json is known before parsing finishes, so usage errors can be JSON too.
  setJsonMode(argv.includes("--json"));
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and --version "fail" with exit code 0; commander has already printed them and any error.
      process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.invalid;
      // Commander printed the message on stderr; a script reading --json output still gets its document.
      if (e.exitCode !== 0 && isJsonMode())
        printJson({ error: { message: e.message, exitCode: EXIT.invalid } });
    } else {
      fail(e);
    }
  }
  // One-shot commands end here even if a library left a timer or a worker behind; the server keeps
  // running until a signal (cli/commands/serve.ts).
  if (!isLongRunning()) process.exit(process.exitCode ?? EXIT.ok);
}

void main(process.argv);
