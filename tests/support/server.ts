/** Starts a real Larder server on loopback over a fresh temp data folder, for end-to-end tests. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder, FIRST_ADMIN } from "../../core/larder.js";
import { loadConfig } from "../../core/config.js";
import { consoleLogger } from "../../core/log/logger.js";
import { startServer, type RunningServer } from "../../web/server/server.js";
import { builtinPlugins } from "../../plugins/builtins.js";

/** A server a test talks to over HTTP only. */
export interface HttpTestServer {
  url: string;
  dataDir: string;
  /** fetch relative to the server, JSON helpers included. */
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestServer extends HttpTestServer {
  larder: Larder;
  server: RunningServer;
}

/** `api` and `login` against the server at `url`. */
export function httpClient(url: string): Pick<HttpTestServer, "api" | "login"> {
  return {
    api(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("Content-Type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(url + path, { ...init, headers, body });
    },
    async login(username = FIRST_ADMIN.username, password = FIRST_ADMIN.password) {
      const res = await fetch(`${url}/api/auth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password }),
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    },
  };
}

export async function startTestServer(
  overrides: Record<string, unknown> = {},
  opts: { dataDir?: string; watch?: boolean } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? join(await mkdtemp(join(tmpdir(), "larder-test-")), "data");
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    dataDir,
    production: false,
    bcryptRounds: 4,
    ...overrides,
  });
  const larder = await Larder.open(config, {
    log: consoleLogger("silent"),
    watch: opts.watch ?? false,
    plugins: builtinPlugins,
  });
  const server = await startServer({ larder, port: 0, host: "127.0.0.1" });
  const t: TestServer = {
    larder,
    server,
    url: server.url,
    dataDir,
    ...httpClient(server.url),
    async close() {
      await server.close();
      await larder.close();
      if (!opts.dataDir) await rm(join(dataDir, ".."), { recursive: true, force: true });
    },
  };
  return t;
}
