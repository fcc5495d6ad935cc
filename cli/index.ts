#!/usr/bin/env node
/**
 * `larder`: a thin shell over core (style.md, CLIs). Each command lives in cli/commands/ (wired up in
 * cli/commands.ts); this file picks the program, sets the output mode, and turns every error into a
 * message and an exit code.
 */
import { CommanderError, type Command } from "commander";
import { isLongRunning } from "./context.js";
import { CliError, EXIT, fail, isJsonMode, printJson, setJsonMode } from "./output.js";

/**
 * `larder serve …` (without --help) needs only `serve`: a program of that one command parses its
 * options, defaults and usage errors the same way, and the start skips loading and declaring the
 * other commands (decision 0163). Everything else gets the whole program.
 */
async function programFor(argv: string[]): Promise<Command> {
  const args = argv.slice(2);
  const command = args.find((a) => !a.startsWith("-"));
  if (command === "serve" && !args.some((a) => a === "--help" || a === "-h" || a === "help")) {
    const [{ programShell }, { registerServe }] = await Promise.all([
      import("./program.js"),
      import("./commands/serve.js"),
    ]);
    const program = programShell();
    registerServe(program);
    return program;
  }
  return (await import("./commands.js")).buildProgram();
}

/** Whether the arguments are only the terminal app's options (`--data DIR`, `--plain`), or none. */
export function onlyAppOptions(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--plain" || /^--data=./.test(a)) continue;
    if (a === "--data" && i + 1 < args.length && !args[i + 1].startsWith("-")) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

async function main(argv: string[]): Promise<void> {
  // A reader that stops reading (`larder … --json | head`) is not an error of ours: a one-shot command
  // ends quietly, as command-line tools do, instead of with a stack trace about EPIPE. The server keeps
  // serving without its log reader (decision 0222).
  for (const stream of [process.stdout, process.stderr])
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (isLongRunning()) return;
      process.exit(e.code === "EPIPE" ? (process.exitCode ?? EXIT.ok) : EXIT.failure);
    });
  // Ink's chalk ignores NO_COLOR (https://no-color.org) but honours FORCE_COLOR=0; it loads lazily, after this.
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = "0";
  const program = await programFor(argv);
  // `larder` alone on a terminal opens the app (`larder --data DIR` too, the app's own options only);
  // without a terminal it prints the help as before.
  if (process.stdin.isTTY && process.stdout.isTTY && onlyAppOptions(argv.slice(2)))
    argv = [...argv.slice(0, 2), "tui", ...argv.slice(2)];
  // The global --json is known before parsing finishes, so usage errors can be JSON too.
  setJsonMode(argv.includes("--json"));
  // Ctrl-C during a one-shot command (an import, a backup) used to end it with no word and, under
  // --json, no document at all. It now says so in one line (or one JSON document) and exits 130.
  // Recipes imported by then stay; a half-written backup and the folder's lock are found stale and
  // cleared the next time the folder is opened. The server has its own shutdown (serve.ts).
  process.on("SIGINT", () => {
    if (isLongRunning()) return;
    fail(new CliError("Interrupted", EXIT.interrupted));
    void Promise.all([process.stdout, process.stderr].map(written)).then(() =>
      process.exit(EXIT.interrupted),
    );
  });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and --version "fail" with exit code 0; commander has already printed them and any error.
      process.exitCode = e.exitCode === 0 ? EXIT.ok : EXIT.invalid;
      // Commander printed the message on stderr; a script reading --json output still gets its document.
      if (e.exitCode !== 0 && isJsonMode()) {
        // A command group given no subcommand prints its help: commander's message for that is
        // "(outputHelp)", an internal token, not something to show a script.
        const message =
          e.code === "commander.help" || e.message === "(outputHelp)"
            ? "a command is required (see --help)"
            : e.message;
        printJson({ error: { message, exitCode: EXIT.invalid } });
      }
    } else {
      fail(e);
    }
  }
  // One-shot commands end here even if a library left a timer or a worker behind; the server keeps
  // running until a signal (cli/commands/serve.ts). What they printed goes out first: into a pipe the
  // reader has not emptied, an exit right away cut a large --json document short.
  if (!isLongRunning()) {
    await Promise.all([process.stdout, process.stderr].map(written));
    process.exit(process.exitCode ?? EXIT.ok);
  }
}

/** Resolves once everything written to the stream so far has been handed to the system (or it failed). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write("", () => resolve());
  });
}

void main(process.argv);
