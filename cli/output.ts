/**
 * How every command talks to the terminal. Human output uses Ink only when stdout is a TTY and --json
 * is off (Ink's input hooks need a TTY, and scripts want stable plain lines); --json prints exactly one
 * JSON document on stdout, the result or `{"error":…}`, so a script can always parse stdout.
 */
import { ZodError } from "zod";
import { isLarderError, storageError } from "../core/errors.js";
import { validationDetail } from "../core/wire/validation-detail.js";

/** Exit codes (docs/cli.md lists them; scripts rely on them). */
export const EXIT = {
  ok: 0,
  /** Something is wrong: problems found by `check`, a refused folder, an unexpected error. */
  failure: 1,
  /** Invalid input: a bad option, a password too short, an e-mail that is not one. */
  invalid: 2,
  /** The change conflicts with what exists: username or e-mail taken. */
  conflict: 3,
  /** What was named does not exist: a user, a group, a household. */
  notFound: 4,
  /** Cancelled with Ctrl-C at a prompt (the shell's convention: 128 + SIGINT). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface Issue {
  /** The input field, when the problem belongs to one. */
  field?: string;
  message: string;
}

/** An error a command reports to the user: a message, an exit code, and optional per-field issues. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly issues: Issue[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

let jsonMode = false;

/** Set once by cli/index.ts from the global --json flag. */
export function setJsonMode(on: boolean): void {
  jsonMode = on;
}
export function isJsonMode(): boolean {
  return jsonMode;
}
/** Ink views only for a person at a terminal. */
export function useInk(): boolean {
  return !jsonMode && process.stdout.isTTY === true;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** One plain line on stdout (human mode only; --json output goes through printJson). */
export function printLine(text = ""): void {
  process.stdout.write(`${text}\n`);
}

export type Row = Record<string, string | number | boolean | null | undefined>;

/** A table: a bordered Ink table on a TTY, aligned plain columns with a header line otherwise. */
export async function printTable(
  rows: Row[],
  opts: { columns?: string[]; empty?: string } = {},
): Promise<void> {
  const columns = opts.columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => columns.map((c) => cellText(r[c])));
  if (rows.length === 0) {
    if (opts.empty) printLine(opts.empty);
    return;
  }
  if (useInk()) {
    const { renderTable } = await import("./views/render.js");
    await renderTable(columns, cells);
    return;
  }
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  printLine(line(columns));
  for (const row of cells) printLine(line(row));
}

function cellText(v: Row[string]): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v).replace(/[\r\n\t]+/g, " ");
}

/** A one-line status message: coloured through Ink on a TTY, plain otherwise. */
export async function printStatus(kind: "ok" | "warn" | "error", text: string): Promise<void> {
  if (useInk()) {
    const { renderStatus } = await import("./views/render.js");
    await renderStatus(kind, text);
    return;
  }
  printLine(text);
}

const RED = "\u001b[31m";
const RESET = "\u001b[39m";

/**
 * Report an error and set the exit code. Stack traces only with LARDER_DEBUG=1: a user needs the
 * message, a developer can ask for the rest.
 */
export function fail(error: unknown, code?: ExitCode): ExitCode {
  const e = toCliError(error, code);
  if (process.env.LARDER_DEBUG === "1" && error instanceof Error && error.stack)
    process.stderr.write(`${error.stack}\n`);
  if (jsonMode) {
    printJson({
      error: { message: e.message, exitCode: e.exitCode, ...(e.issues.length ? { issues: e.issues } : {}) },
    });
  } else {
    const lines = [e.message, ...e.issues.map((i) => `  ${i.field ? `${i.field}: ` : ""}${i.message}`)];
    const text = lines.join("\n");
    const colour = process.stderr.isTTY && !process.env.NO_COLOR;
    process.stderr.write(colour ? `${RED}${text}${RESET}\n` : `${text}\n`);
  }
  process.exitCode = e.exitCode;
  return e.exitCode;
}

/**
 * A recipe the command was given by slug and did not find, said with the slug: core and the API answer
 * Mealie's "No Entry Found", which names nothing. Anything else is rethrown as it was.
 */
export async function recipeNamed<T>(slug: string, find: () => Promise<T> | T): Promise<T> {
  try {
    return await find();
  } catch (e) {
    const missing =
      (isLarderError(e) && e.status === 404) || (e instanceof CliError && e.exitCode === EXIT.notFound);
    if (missing) throw new CliError(`No recipe '${slug}' in this group`, EXIT.notFound);
    throw e;
  }
}

/** Map anything thrown to a message and an exit code (core's typed errors by their HTTP status). */
export function toCliError(error: unknown, code?: ExitCode): CliError {
  if (error instanceof CliError)
    return code === undefined ? error : new CliError(error.message, code, error.issues);
  if (isLarderError(error)) {
    const byStatus: Record<number, ExitCode> = {
      400: EXIT.invalid,
      404: EXIT.notFound,
      409: EXIT.conflict,
      422: EXIT.invalid,
    };
    const issues = Array.isArray(error.detail)
      ? error.detail.map((d) => ({ field: String(d.loc[d.loc.length - 1] ?? ""), message: d.msg }))
      : [];
    return new CliError(error.message, code ?? byStatus[error.status] ?? EXIT.failure, issues);
  }
  // A value core's schema refused (a group named ""): said field by field, as the API's 422 says it.
  if (error instanceof ZodError) {
    const issues = new Map<string, string>();
    // A field's first message only: a schema may say the same twice ("required", then "a name is required").
    for (const d of validationDetail(error)) {
      const field = d.loc.slice(1).join(".");
      if (!issues.has(field)) issues.set(field, d.msg);
    }
    return new CliError(
      "Invalid input",
      code ?? EXIT.invalid,
      [...issues].map(([field, message]) => ({ field, message })),
    );
  }
  if (typeof error === "string") return new CliError(error, code ?? EXIT.failure);
  // A full or read-only disk says so, and that nothing was lost (decision 0206).
  const storage = storageError(error);
  if (storage) return new CliError(storage.message, code ?? EXIT.failure);
  const message = error instanceof Error ? error.message : String(error);
  return new CliError(message, code ?? EXIT.failure);
}
