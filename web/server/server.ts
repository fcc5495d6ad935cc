/**
 * `larder serve`: one node:http server. Requests under /api go straight to web/api (no Remix overhead);
 * everything else goes to Remix with the core instance in the load context (ARCHITECTURE §1).
 */
import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type { Larder } from "../../core/larder.js";
import { createApiHandler } from "../api/handler.js";
import { buildRouter } from "../api/routes/index.js";
import { withRequestScope } from "./crash-guard.js";
import { FairShare, Overloaded } from "./limiter.js";
import { createRemixHandler, type NodeHandler } from "./remix-adapter.js";
import { serveStatic } from "./static-files.js";

export interface StartOptions {
  larder: Larder;
  port: number;
  host: string;
  /** Folder holding Remix's `server/index.js` and `client/`; default: the repo's build/. */
  buildDir?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** The repo's build/ folder, whether this file runs from source or from dist/. */
export function defaultBuildDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, "build", "server", "index.js"))) return join(dir, "build");
    if (existsSync(join(dir, "package.json"))) return join(dir, "build");
    dir = dirname(dir);
  }
  return resolve("build");
}

/**
 * Request slots shared fairly between page renders and the API's list and search requests (limiter.ts):
 * each class gets about half the time when both are busy, in arrival order within a class. Other API
 * requests (uploads reading their bodies, sign-in, media) are not held: they must not wait behind pages.
 */
const SLOTS = { total: 2, page: 2, api: 2 };
/** Requests waiting per class beyond this are answered 503 at once rather than after a minute. */
const MAX_WAITING = 2_000;

/** The API requests that cost CPU time in proportion to the folder: listing and searching recipes. */
function isListOrSearch(method: string | undefined, path: string): boolean {
  return (
    (method === "GET" || method === "HEAD") &&
    (path === "/api/recipes" || path === "/api/explore/groups" || path.startsWith("/api/explore/groups/"))
  );
}

/** How long after start-up the web UI's server build is loaded if no page asked for it before. */
const UI_PRELOAD_DELAY_MS = 2_000;

export async function createLarderServer(opts: Omit<StartOptions, "port" | "host">): Promise<Server> {
  const { larder } = opts;
  const api = createApiHandler(larder, buildRouter());
  const buildDir = opts.buildDir ?? defaultBuildDir();
  const clientDir = join(buildDir, "client");
  const serverEntry = join(buildDir, "server", "index.js");
  const built = existsSync(serverEntry);
  if (!built)
    larder.log.warn(`web UI not built (${serverEntry} missing): serving the API only; run \`npm run build\``);
  // The UI's server build (React, Mantine, the routes) takes about half a second to load: the API
  // answers without waiting for it, and the first page, or a timer soon after start, loads it.
  let remix: Promise<NodeHandler> | null = null;
  const loadRemix = () =>
    (remix ??= import(pathToFileURL(serverEntry).href).then(
      (build: ServerBuild) => createRemixHandler(build, larder),
      (e: unknown) => {
        remix = null; // tried again by the next page
        throw e;
      },
    ));
  if (built) {
    setTimeout(
      () => void loadRemix().catch((e: unknown) => larder.log.error("loading the web UI failed", e)),
      UI_PRELOAD_DELAY_MS,
    ).unref();
  }
  const share = new FairShare(SLOTS.total, { page: SLOTS.page, api: SLOTS.api }, MAX_WAITING);
  return createServer((req, res) =>
    withRequestScope(req, res, () => {
      const path = (req.url ?? "/").split("?")[0];
      const run = async () => {
        if (isListOrSearch(req.method, path)) return share.run("api", () => api(req, res));
        if (path === "/api" || path.startsWith("/api/")) return api(req, res);
        if (await serveStatic(clientDir, req, res)) return;
        if (built) {
          // Loaded outside the slot: the first pages waiting for the UI's code must not hold the
          // slots the first searches need.
          const render = await loadRemix();
          return share.run("page", () => render(req, res));
        }
        res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("The web UI is not built. Run `npm run build`.");
      };
      run().catch((e: unknown) => {
        if (e instanceof Overloaded) {
          // API clients get Mealie's error shape; a browser gets a line of text.
          const json = path.startsWith("/api/");
          if (!res.headersSent)
            res.writeHead(503, {
              "Content-Type": json ? "application/json" : "text/plain; charset=utf-8",
              "Retry-After": String(e.retryAfterSeconds),
            });
          res.end(
            json
              ? JSON.stringify({ detail: { message: e.message, error: true, exception: null } })
              : "The server is busy; try again shortly.",
          );
          return;
        }
        larder.log.error(`request ${req.method} ${path} failed`, e);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Internal Server Error");
      });
    }),
  );
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const server = await createLarderServer(opts);
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(opts.port, opts.host, () => ok());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : opts.port;
  const hostForUrl = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${hostForUrl}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
