/**
 * `larder serve`: one node:http server. Requests under /api go straight to web/api (no router overhead);
 * everything else goes to React Router with the core instance in the load context (ARCHITECTURE §1).
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import { existsSync } from "node:fs";
import { constants as zlib } from "node:zlib";
import compression from "compression";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { ForbiddenError } from "../../core/errors.js";
import type { Larder } from "../../core/larder.js";
import { createApiHandler } from "../api/handler.js";
import { clientAddressOf } from "./client-address.js";
import { buildRouter } from "../api/routes/index.js";
import { withRequestScope } from "./crash-guard.js";
import { answerClientError } from "./client-error.js";
import { Abandoned, FairShare, Overloaded } from "./limiter.js";
import { UNSAFE_METHODS, crossOriginRefusal } from "./edge.js";
import { serveStatic } from "./static-files.js";

/**
 * node:http as Node's own module, not an ES module namespace: building that namespace reads every
 * export once, and one of them is a getter that loads undici (the fetch implementation), a tenth of
 * a second of a start before the first answer (decision 0139).
 */
/** Requests that change nothing: served while a backup is unpacked (a write would be lost with the swap). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const { createServer } = process.getBuiltinModule("node:http");

export interface StartOptions {
  larder: Larder;
  port: number;
  host: string;
  /** Folder holding React Router's `server/index.js` and `client/`; default: the repo's build/. */
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
/** A request expected to wait longer than this for a slot is answered 503 at once (limiter.ts). */
const MAX_WAIT_MS = 10_000;
/** A request that has waited this long anyway is answered 503 when its turn comes: clients give up at about 30 s. */
const MAX_QUEUED_MS = 20_000;
/**
 * Slot time per request assumed until a class's first request has finished, so a first burst is
 * estimated too (decision 0120): about what a first render of a page, and a first search, take on a
 * small two-core machine that is busy.
 */
const PRIOR_MS = { page: 60, api: 30 };

/** The API requests that cost CPU time in proportion to the folder: listing and searching recipes. */
function isListOrSearch(method: string | undefined, path: string): boolean {
  return (
    (method === "GET" || method === "HEAD") &&
    (path === "/api/recipes" || path === "/api/explore/groups" || path.startsWith("/api/explore/groups/"))
  );
}

/**
 * Imports the UI's server build. React picks its development or production build by NODE_ENV when it is
 * first loaded, and the development one (prop checks, owner stacks per element) renders pages several
 * times slower: a server nobody told otherwise runs production React. Tests set NODE_ENV=test and keep
 * React's checks.
 */
async function loadUiBuild(serverEntry: string, larder: Larder, clientDir: string): Promise<UiPages> {
  process.env.NODE_ENV ??= "production";
  // Imported here, not at the top: @react-router/node loads React, which must see NODE_ENV first.
  const { createRequestListener } = await import("@react-router/node");
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const listener = createRequestListener({
    build,
    mode: "production",
    // The client's address, as the API resolves it: the sign-in form's throttle counts per address.
    getLoadContext: (request, client) => ({
      larder,
      clientDir,
      clientAddress: clientAddressOf(
        client.address,
        request.headers.get("x-forwarded-for"),
        larder.config.trustedProxies,
      ),
    }),
  });
  // React Router answers a web Request, and Node loads its fetch classes (undici) on first use: some
  // 30 ms the first page paid, paid here with the build instead.
  void new Request("http://localhost/", { headers: new Headers({ accept: "text/html" }) });
  const entry = build.entry.module as {
    pageAnswers?: (larder: Larder, listener: RequestListener) => UiPages;
  };
  return entry.pageAnswers?.(larder, listener) ?? { answerEarly: async () => false, render: listener };
}

/** The UI's pages: a stored page answered before React Router runs, else React Router (decision 0160). */
interface UiPages {
  answerEarly(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  render: RequestListener;
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
  // The UI's server build (React, Mantine, the routes) takes about a quarter of a second to load
  // (decision 0203): the API answers without waiting for it, and the first page, or a timer soon
  // after start, loads it.
  let ui: Promise<UiPages> | null = null;
  const loadUi = () =>
    (ui ??= loadUiBuild(serverEntry, larder, clientDir).catch((e: unknown) => {
      ui = null; // tried again by the next page
      throw e;
    }));
  if (built) {
    setTimeout(
      () => void loadUi().catch((e: unknown) => larder.log.error("loading the web UI failed", e)),
      UI_PRELOAD_DELAY_MS,
    ).unref();
  }
  const share = new FairShare(SLOTS.total, { page: SLOTS.page, api: SLOTS.api }, MAX_WAITING, undefined, {
    maxWaitMs: MAX_WAIT_MS,
    maxQueuedMs: MAX_QUEUED_MS,
    priorMs: PRIOR_MS,
  });
  const server = createServer((req, res) =>
    withRequestScope(req, res, () => {
      const path = (req.url ?? "/").split("?")[0];
      // Every answer — JSON, media, static files, pages, errors — is to be taken for the type it declares.
      res.setHeader("X-Content-Type-Options", "nosniff");
      const isApi = path === "/api" || path.startsWith("/api/");
      const refused = crossOriginRefusal(req.method ?? "GET", isApi, headersOf(req), larder.config.baseUrl);
      if (refused) return refuse(req, res, isApi, refused);
      if (!isApi) {
        // Answered here with one status, rather than as a router error logged on every such request.
        const bad = badPageRequest(req.method ?? "GET", path, req.headers["content-type"]);
        if (bad) return refuse(req, res, false, bad.message, bad.status);
      }
      // A client that hangs up while its request waits for a slot takes the request out of the queue.
      const gone = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) gone.abort();
      });
      const run = async () => {
        // A restore swaps the folder and reopens every service (decision 0071): no request may reach a
        // service that is closed or half-open meanwhile.
        if (larder.reloading || (larder.restoring && !SAFE_METHODS.has(req.method ?? "GET")))
          throw new Overloaded(5, "Larder is restoring a backup; try again in a moment");
        // Static files carry their own precompressed twins (and byte ranges, which must not be re-encoded).
        if (!isApi && (await serveStatic(clientDir, req, res))) return;
        await compress(req, res);
        // Lists, searches and pages share a bounded number of slots fairly (issue 11 §8).
        if (isListOrSearch(req.method, path)) return share.run("api", () => api(req, res), gone.signal);
        if (isApi) return api(req, res);
        if (built) {
          // Loaded outside the slot: the first pages waiting for the UI's code must not hold the
          // slots the first searches need.
          const pages = await loadUi();
          // A page stored under the request's early key costs a lookup: it does not queue for a slot.
          if (await pages.answerEarly(req, res)) return;
          return share.run("page", async () => pages.render(req, res), gone.signal);
        }
        res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("The web UI is not built. Run `npm run build`.");
      };
      run().catch((e: unknown) => {
        if (e instanceof Abandoned) return void res.destroy();
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
              : `${e.message}.`,
          );
          return;
        }
        larder.log.error(`request ${req.method} ${path} failed`, e);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("Internal Server Error");
      });
    }),
  );
  server.on("clientError", answerClientError);
  return server;
}

/**
 * On-the-fly brotli/gzip for what is not compressed at build time (pages, JSON, data requests). The
 * `compression` middleware skips types that are compressed already (images, zips) and answers that carry
 * a Content-Encoding (the static files' precompressed twins), and sets `Vary: Accept-Encoding`. Each write
 * is flushed so a streamed page still arrives as it renders; brotli runs at quality 4, cheap enough per request.
 */
const compressor = compression({
  threshold: 1024,
  flush: zlib.Z_SYNC_FLUSH,
  brotli: { flush: zlib.BROTLI_OPERATION_FLUSH },
});
const compress = (req: IncomingMessage, res: ServerResponse) =>
  new Promise<void>((next) => compressor(req as never, res as never, () => next()));

const first = (v: string | string[] | undefined): string | null =>
  Array.isArray(v) ? (v[0] ?? null) : (v ?? null);

function headersOf(req: IncomingMessage) {
  const h = req.headers;
  return {
    host: first(h.host),
    origin: first(h.origin),
    referer: first(h.referer),
    authorization: first(h.authorization),
    cookie: first(h.cookie),
  };
}

/**
 * Page requests no route can take: a path that is not valid percent-encoding (400), and a write whose
 * body is not a form (415) — every UI action reads a form, and anything else would fail inside it as a 500.
 */
function badPageRequest(
  method: string,
  path: string,
  contentType: string | undefined,
): { status: number; message: string } | null {
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, message: "Bad Request: malformed URL" };
  }
  if (!UNSAFE_METHODS.has(method.toUpperCase())) return null;
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type && !["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"].includes(type))
    return { status: 415, message: "Unsupported Media Type: pages accept form posts only" };
  return null;
}

/** A refused request is a 4xx with the reason: Mealie's error shape under /api, plain text for pages. */
function refuse(req: IncomingMessage, res: ServerResponse, api: boolean, reason: string, status = 403): void {
  const body = api ? JSON.stringify(new ForbiddenError(reason, reason).body()) : `${reason}\n`;
  res.writeHead(status, {
    "Content-Type": api ? "application/json" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    // The body is not read: close the connection rather than drain an upload nobody wants.
    Connection: "close",
  });
  res.end(body);
  req.resume();
}

/**
 * Why the server could not listen, said so a person knows what to change: node's own text
 * ("listen EADDRINUSE: address already in use 127.0.0.1:9000") names a system call, not the option.
 */
export function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: `Port ${port} is already in use on ${host} (another Larder or another program); choose another with --port or LARDER_PORT`,
    EACCES: `Not allowed to listen on ${where} (ports below 1024 need privileges); choose another with --port or LARDER_PORT`,
    EADDRNOTAVAIL: `Cannot listen on ${where}: no network interface of this machine has the address ${host}; choose another with --host or LARDER_HOST`,
    ENOTFOUND: `Cannot listen on ${where}: the host name ${host} does not resolve; choose another with --host or LARDER_HOST`,
  };
  const reason = code ? reasons[code] : undefined;
  return reason ? Object.assign(new Error(reason), { code }) : error;
}

export async function startServer(opts: StartOptions): Promise<RunningServer> {
  const server = await createLarderServer(opts);
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  await new Promise<void>((ok, fail) => {
    server.once("error", (e) => fail(listenError(e, opts.host, opts.port)));
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
