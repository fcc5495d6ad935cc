/**
 * `larder serve` as a process of its own over a fresh temp folder: the bundle users run when it is
 * current, the sources through tsx otherwise (cli/testing/run-cli.ts). In-process servers
 * (tests/support/server.ts) run the sources, where a dependency can load differently from the bundle
 * (decision 0194); a suite that needs nothing but HTTP can run against this one instead.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, larderProcess } from "../../cli/testing/run-cli.js";
import { httpClient, type HttpTestServer } from "./server.js";

export interface ServedLarder extends HttpTestServer {
  /** What the server printed so far, for a failure's message. */
  output(): string;
  /** Ends the server with SIGKILL, as a power cut or `kill -9` would; the folder stays. */
  kill(): Promise<void>;
}

/**
 * Starts the server with `env` (the configuration's variables: BASE_URL, OIDC_*, LARDER_FETCH_ALLOW…)
 * on `port` (a free one by default) and resolves once it listens. Over `dataDir` when given (left in
 * place on close), else over a new temp folder removed on close.
 */
export async function startServedLarder(
  env: Record<string, string> = {},
  port?: number,
  opts: { dataDir?: string } = {},
): Promise<ServedLarder> {
  const tmp = opts.dataDir ? null : await mkdtemp(join(tmpdir(), "larder-served-"));
  const dataDir = opts.dataDir ?? join(tmp!, "data");
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  // Like the in-process test server: development errors, cheap password hashes.
  const child = larderProcess(["serve", "--data", dataDir, "--port", String(p), "--host", "127.0.0.1"], {
    env: { PRODUCTION: "false", ...env },
    detached: true,
  });
  let out = "";
  let exited = false;
  // Resolves on the line `serve` prints once it listens (cli/commands/serve.ts), fails if it ends first.
  const listening = new Promise<void>((resolve, reject) => {
    const seen = (c: Buffer) => {
      out += c.toString();
      if (out.includes("is serving")) resolve();
    };
    child.stdout?.on("data", seen);
    child.stderr?.on("data", seen);
    void child.then(() => {
      exited = true;
      reject(new Error(`larder serve ended before it listened:\n${out}`));
    });
  });

  const close = async () => {
    if (!exited) child.kill("SIGTERM");
    await child;
    if (tmp) await rm(tmp, { recursive: true, force: true });
  };
  const kill = async () => {
    if (!exited) process.kill(-child.pid!, "SIGKILL");
    await child;
  };
  try {
    await listening;
  } catch (e) {
    await close();
    throw e;
  }
  return { url, dataDir, ...httpClient(url), output: () => out, close, kill };
}
