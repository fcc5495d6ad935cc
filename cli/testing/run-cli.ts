/** Test helpers: run the real CLI (the bundle, or the sources through tsx) against throwaway data folders. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createServer } from "node:net";
import { execa, type Result } from "execa";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TSX_LOADER = join(REPO, "node_modules", "tsx", "dist", "loader.mjs");
const BUNDLE = join(REPO, "dist", "bundle", "larder.js");

/**
 * The command line a test runs: the bundle users run when it is newer than every source it is built
 * from (`npm test` builds it first), since it starts in about a third of the time tsx takes to load the
 * sources (0.23 against 0.75 s, over some 150 runs a suite); tsx from the sources otherwise, so that a
 * developer's `vitest` after an edit tests the edit. LARDER_TEST_CLI=tsx forces the sources.
 */
const { bundleIsCurrent } = (await import(join(REPO, "scripts", "build-if-stale.mjs"))) as {
  bundleIsCurrent(): boolean;
};
const useBundle = process.env.LARDER_TEST_CLI !== "tsx" && bundleIsCurrent();
// The sources run in one process with tsx's loader, not under tsx's command (a parent that starts node
// as its child): a test's SIGKILL then stops the CLI itself, where it used to stop only tsx and leave
// the server running, its pipes open, and the test's cleanup waiting.
const CLI: [string, string[]] = useBundle
  ? [process.execPath, [BUNDLE]]
  : [process.execPath, ["--import", pathToFileURL(TSX_LOADER).href, join(REPO, "cli", "index.ts")]];

/** The same command as shell words, for tests that run it inside `script` or tmux. */
export const CLI_SHELL = CLI.flat()
  .map((w) => `'${w.replace(/'/g, `'\\''`)}'`)
  .join(" ");

export interface RunOptions {
  input?: string;
  /** A file (or a device: /dev/zero) streamed into stdin, instead of `input`. */
  inputFile?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** A process group of its own, so that a test can kill the CLI and anything it started at once. */
  detached?: boolean;
}

export type CliResult = Result<{ reject: false }>;

/** Environment of a CLI run: the test's own settings must not leak in (a developer's LARDER_DATA…). */
function cliEnv(extra: RunOptions["env"] = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const merged = {
    ...process.env,
    LARDER_DATA: undefined,
    LARDER_DEBUG: undefined,
    LARDER_PORT: undefined,
    LARDER_HOST: undefined,
    // Cheap hashes: the tests exercise the CLI, not bcrypt.
    LARDER_BCRYPT_ROUNDS: "4",
    NO_COLOR: "1",
    ...extra,
  };
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) env[k] = v;
  return env;
}

export function larder(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return execa(CLI[0], [...CLI[1], ...args], {
    cwd: opts.cwd ?? REPO,
    reject: false,
    env: cliEnv(opts.env),
    extendEnv: false,
    // Without input, stdin is closed: the CLI must never sit waiting for a prompt.
    ...(opts.inputFile !== undefined
      ? { inputFile: opts.inputFile }
      : opts.input === undefined
        ? { stdin: "ignore" as const }
        : { input: opts.input }),
  }) as Promise<CliResult>;
}

/** Start a long-running command (serve) without waiting for it; the caller stops it. */
export function larderProcess(args: string[], opts: RunOptions = {}) {
  return execa(CLI[0], [...CLI[1], ...args], {
    cwd: opts.cwd ?? REPO,
    reject: false,
    env: cliEnv(opts.env),
    extendEnv: false,
    stdin: "ignore",
    detached: opts.detached === true,
  });
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address();
  await new Promise((ok) => server.close(ok));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** stdout parsed as JSON, with the output in the message when it is not JSON. */
export function json<T = unknown>(result: CliResult): T {
  try {
    return JSON.parse(String(result.stdout)) as T;
  } catch {
    throw new Error(
      `stdout is not JSON (exit ${result.exitCode}):\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
    );
  }
}

/** A temp folder removed after the test file's tests (call in beforeAll/afterAll or per test). */
export async function tempDir(prefix = "larder-cli-"): Promise<{ path: string; cleanup(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}
