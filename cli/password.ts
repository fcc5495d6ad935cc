/**
 * Where a password comes from: --password (convenient, but visible in `ps` and shell history),
 * --password-stdin (for scripts and secrets managers), or a hidden prompt when a person is at a terminal.
 */
import { CliError, EXIT } from "./output.js";
import { readStdin } from "./bounded-read.js";

export interface PasswordOptions {
  password?: string;
  passwordStdin?: boolean;
}

export async function obtainPassword(
  opts: PasswordOptions,
  { confirm }: { confirm: boolean },
): Promise<string> {
  if (opts.password !== undefined && opts.passwordStdin) {
    throw new CliError("Use --password or --password-stdin, not both", EXIT.invalid);
  }
  if (opts.password !== undefined) return opts.password;
  if (opts.passwordStdin) return passwordFromStdin();
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const first = await promptHidden("Password: ");
    if (confirm) {
      const again = await promptHidden("Repeat password: ");
      if (again !== first) throw new CliError("passwords must match", EXIT.invalid);
    }
    return first;
  }
  throw new CliError(
    "A password is required: use --password, --password-stdin, or run in a terminal",
    EXIT.invalid,
  );
}

/** A password longer than this on stdin is not a password (bcrypt reads 72 bytes of it). */
const PASSWORD_STDIN_BYTES = 64 * 1024;

/** All of stdin, minus the one line ending that `echo` or a here-string adds. */
async function passwordFromStdin(): Promise<string> {
  return (await readStdin(PASSWORD_STDIN_BYTES, "a password")).replace(/\r?\n$/, "");
}

/** Read a line without echoing it (raw mode), prompting on stderr so stdout stays clean. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: CliError) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      // Arrow keys and other escape sequences arrive as one chunk starting with ESC: not part of a password.
      if (chunk.startsWith("\u001b")) return;
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish();
        if (ch === "\u0003") return finish(new CliError("Cancelled", EXIT.interrupted));
        if (ch === "\u0004") return value ? finish() : finish(new CliError("Cancelled", EXIT.interrupted));
        if (ch === "\u007f" || ch === "\b") value = Array.from(value).slice(0, -1).join("");
        else if (ch >= " ") value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}
