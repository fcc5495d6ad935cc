/**
 * Server entry: React Router's default Node entry (streaming SSR; bots get the whole document at once), plus
 * a few response headers and error logging through Larder's logger (404s are not errors worth a log line).
 *
 * A page whose render inputs can be keyed (lib/render-cache.server.ts, decisions 0115 and 0120) is rendered
 * whole, sealed (its inline scripts named by hash in the CSP, no nonce left) and stored; the same inputs
 * later get the same bytes, compressed once, without React. Any other page (deferred data, an action's
 * answer, an error) streams as it renders with a fresh nonce.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { Transform, Writable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { contentSecurityPolicy } from "./lib/csp.server.js";
import { themeOf } from "./lib/app-info.server.js";
import { StylesheetTexts, inlineStylesheets } from "./lib/inline-styles.server.js";
import { themeCss } from "./lib/theme-css.server.js";
import { themeStylesheetHref } from "./lib/theme.js";
import { NonceContext } from "./lib/nonce.js";
import {
  RenderCache,
  StoredPage,
  preferredEncoding,
  renderKey,
  sealPage,
} from "./lib/render-cache.server.js";
import {
  EARLY_ROUTES,
  EarlyIndex,
  earlyKey,
  ticketScope,
  viewerOf,
  type Ticket,
} from "./lib/early-pages.server.js";

export const renderCache = new RenderCache();
/** Stored pages found by the request before React Router runs (lib/early-pages.server.ts, decision 0160). */
export const earlyIndex = new EarlyIndex();

/** First renders under way, by key: a second request for the same page waits for the first one's. */
const rendering = new Map<string, Promise<StoredPage>>();

/**
 * Everything a page's HTML is rendered from, or null when it is not to be cached: only a plain GET
 * that rendered without errors or action data. The day is part of it, for the few controls that
 * default to a date (a share link's expiry).
 */
function renderInputs(request: Request, status: number, ctx: EntryContext, waitForAll: boolean) {
  const s = ctx.staticHandlerContext;
  if (request.method !== "GET" || status !== 200 || s.errors || s.actionData) return null;
  return renderKey({
    url: request.url,
    waitForAll,
    day: new Date().toISOString().slice(0, 10),
    matches: s.matches.map((m) => m.route.id),
    loaderData: s.loaderData,
  });
}

/** How long deferred data may stream; React is aborted a second later so its rejections reach the page. */
export const streamTimeout = 5_000;

type Log = AppLoadContext["larder"]["log"];

/** Inlines a document's stylesheets (lib/inline-styles.server.ts); null when they are only linked. */
type Inline = ((html: string) => string) | null;

const sheetTexts = new WeakMap<AppLoadContext["larder"], StylesheetTexts>();

/**
 * Whether this page inlines its stylesheets: the root loader says so for a browser without them cached
 * (decision 0309). Its answer is part of the page's data, so a stored page is one or the other.
 */
function inlinerFor(routerContext: EntryContext, loadContext: AppLoadContext): Inline {
  const root = routerContext.staticHandlerContext.loaderData.root as { inlineStyles?: unknown } | undefined;
  const { larder, clientDir } = loadContext;
  if (!root?.inlineStyles || !clientDir) return null;
  let texts = sheetTexts.get(larder);
  if (!texts) {
    texts = new StylesheetTexts(clientDir, () => {
      const colors = themeOf(larder);
      return { href: themeStylesheetHref(colors), css: themeCss(colors) };
    });
    sheetTexts.set(larder, texts);
  }
  const from = texts;
  return (html) => inlineStylesheets(html, (href) => from.read(href));
}

function app(routerContext: EntryContext, url: string, nonce: string) {
  return (
    <NonceContext.Provider value={nonce}>
      <ServerRouter context={routerContext} url={url} nonce={nonce} />
    </NonceContext.Provider>
  );
}

/**
 * The render options of a document sent whole (stored pages, bots): every Suspense boundary inline where
 * it stands. By default React outlines a finished boundary of over 12,800 bytes (the recipe editor) even
 * when piping only once all is ready: it sends the fallback in its place, the content in a hidden <div> at
 * the end of the body, and a script that moves it in a frame later, or up to 300 ms after the last such
 * move. Until then the boundary is pending in the browser, and React client-renders a pending boundary
 * that any update reaches while hydrating, a transition included (React Router's state updates are
 * transitions), with no error logged; the hidden copy stays in the page until the script runs (a second
 * editor, 6 ingredient pills for 3, failed twice in CI; decision 0175). Outlining helps a page that
 * streams; a page sent whole arrives at once, and inline its content shows when parsed, also without
 * JavaScript.
 */
const WHOLE = { progressiveChunkSize: Number.POSITIVE_INFINITY } as const;

/** Renders the whole document into memory: its HTML, and whether anything failed on the way. */
function renderWhole(
  routerContext: EntryContext,
  url: string,
  nonce: string,
  log: Log,
  inline: Inline,
): Promise<{ html: Buffer; failed: boolean }> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timer);
        // Kept as bytes: sealing and storing need nothing else, and a page is tens of kilobytes.
        const html = Buffer.concat(chunks);
        resolve({ html: inline ? Buffer.from(inline(html.toString("utf8"))) : html, failed });
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(app(routerContext, url, nonce), {
      ...WHOLE,
      nonce,
      onShellReady: () => (shellRendered = true),
      onAllReady: () => pipe(sink),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error as Error);
      },
      onError(error: unknown) {
        failed = true;
        // Errors before the shell reject and are logged by React Router (handleError below).
        if (shellRendered) log.error("render failed", error);
      },
    });
    const timer = setTimeout(() => {
      failed = true;
      abort();
    }, streamTimeout + 1_000);
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  // A fresh nonce per render: the only inline scripts that run are the ones this render produced.
  const nonce = randomBytes(16).toString("base64");
  const log = loadContext.larder.log;
  const inline = inlinerFor(routerContext, loadContext);
  const setHeaders = (csp: string) => pageHeaders(responseHeaders, csp);
  // A page the loaders answered with headers of their own (a cookie set) is not answered early: those
  // headers belong to that one answer.
  const ticket = ticketScope.getStore();
  const early =
    ticket &&
    [...responseHeaders.keys()].length === 0 &&
    EARLY_ROUTES.has(routerContext.staticHandlerContext.matches.map((m) => m.route.id).join(" "))
      ? ticket
      : null;

  const answerStored = async (page: StoredPage): Promise<Response> => {
    if (early) earlyIndex.remember(early, page.key, loadContext.larder.changeCount);
    const answer = await storedAnswer(
      page,
      responseHeaders,
      request.headers.get("accept-encoding"),
      request.headers.get("if-none-match"),
    );
    return new Response(answer.body as Uint8Array<ArrayBuffer> | null, {
      headers: responseHeaders,
      status: answer.notModified ? 304 : responseStatusCode,
    });
  };

  const key = renderInputs(request, responseStatusCode, routerContext, waitForAll);
  if (key) {
    const cached = renderCache.get(key);
    if (cached) return answerStored(cached);
    let first = rendering.get(key);
    const mine = !first;
    if (!first) {
      first = renderWhole(routerContext, request.url, nonce, log, inline).then(({ html, failed }) => {
        const sealed = failed ? null : sealPage(html, nonce);
        if (!sealed) {
          // Not kept: answered as rendered, under its own nonce.
          if (failed) responseStatusCode = 500;
          setHeaders(contentSecurityPolicy({ nonce }));
          throw new Unsealed(html);
        }
        const page = new StoredPage(key, sealed.html, contentSecurityPolicy({ hashes: sealed.scriptHashes }));
        renderCache.set(page);
        return page;
      });
      rendering.set(key, first);
      void first.catch(() => {}).finally(() => rendering.delete(key));
    }
    return first.then(answerStored, (e: unknown) => {
      if (mine && e instanceof Unsealed)
        return new Response(e.html as Uint8Array<ArrayBuffer>, {
          headers: responseHeaders,
          status: responseStatusCode,
        });
      // Another request's render failed: this one renders for itself, streaming.
      if (!mine)
        return stream(
          routerContext,
          request,
          responseStatusCode,
          responseHeaders,
          setHeaders,
          nonce,
          log,
          waitForAll,
          inline,
        );
      throw e;
    });
  }
  return stream(
    routerContext,
    request,
    responseStatusCode,
    responseHeaders,
    setHeaders,
    nonce,
    log,
    waitForAll,
    inline,
  );
}

/** The headers of every page answer, with its Content-Security-Policy. */
function pageHeaders(headers: Headers, csp: string): void {
  headers.set("Content-Type", "text/html; charset=utf-8");
  // Pages show a signed-in user's data: never keep them in a shared cache.
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "private, no-cache");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "SAMEORIGIN");
  headers.set("Content-Security-Policy", csp);
}

/**
 * A stored page's answer in the encoding the client prefers: its headers set on `headers`, and its body,
 * or none when the client's If-None-Match names these very bytes (a 304).
 */
async function storedAnswer(
  page: StoredPage,
  headers: Headers,
  acceptEncoding: string | null,
  ifNoneMatch: string | null,
): Promise<{ notModified: boolean; body: Buffer | null }> {
  const encoding = preferredEncoding(acceptEncoding);
  pageHeaders(headers, page.csp);
  headers.append("Vary", "Accept-Encoding");
  // Each encoding is its own set of bytes, so its own validator.
  const etag = `${page.etag.slice(0, -1)}.${encoding}"`;
  headers.set("ETag", etag);
  if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === etag))
    return { notModified: true, body: null };
  const body = await renderCache.body(page, encoding);
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(body.length));
  return { notModified: false, body };
}

const tickets = new WeakMap<IncomingMessage, Ticket>();

const one = (v: string | string[] | undefined): string | null =>
  Array.isArray(v) ? v.join(", ") : (v ?? null);

/**
 * The page side of the server (web/server/server.ts): `answerEarly` answers a request whose page is
 * stored under its early key (lib/early-pages.server.ts) at once, without React Router, and otherwise
 * leaves a ticket for `render`, which runs React Router with it so the page it stores is indexed too.
 */
export function pageAnswers(larder: AppLoadContext["larder"], listener: RequestListener) {
  return {
    async answerEarly(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      if (req.method !== "GET") return false;
      const acceptEncoding = one(req.headers["accept-encoding"]);
      // Codings other than brotli and gzip are the edge's to apply on the way out.
      if (acceptEncoding && preferredEncoding(acceptEncoding) === "identity") return false;
      const count = larder.changeCount;
      const key = earlyKey(req);
      const entry = earlyIndex.lookup(count, key);
      const viewer = await viewerOf(larder, req.headers.cookie);
      const page =
        entry && entry.viewer === viewer && larder.changeCount === count
          ? renderCache.get(entry.renderKey)
          : null;
      if (!page) {
        tickets.set(req, { count, key, viewer });
        return false;
      }
      earlyIndex.hits++;
      const headers = new Headers();
      const answer = await storedAnswer(page, headers, acceptEncoding, one(req.headers["if-none-match"]));
      res.writeHead(answer.notModified ? 304 : 200, Object.fromEntries(headers));
      if (answer.body) res.end(answer.body);
      else res.end();
      return true;
    },
    render(req: IncomingMessage, res: ServerResponse): void {
      const ticket = tickets.get(req);
      if (ticket) ticketScope.run(ticket, () => listener(req, res));
      else void listener(req, res);
    },
  };
}

/** A whole render that is answered but not kept (it failed, or its nonce sat somewhere unexpected). */
class Unsealed extends Error {
  constructor(readonly html: Buffer) {
    super("page not sealed");
  }
}

/** Streams the page as React renders it (all at once for a bot), under this response's nonce. */
function stream(
  routerContext: EntryContext,
  request: Request,
  status: number,
  headers: Headers,
  setHeaders: (csp: string) => void,
  nonce: string,
  log: Log,
  waitForAll: boolean,
  inline: Inline,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      // With stylesheets to inline, the head is held until it is whole (it comes in the shell's first
      // chunks), then sent with them; the rest passes as it renders.
      let head: Buffer[] | null = inline ? [] : null;
      const sendHead = (): Buffer => {
        const html = Buffer.concat(head!).toString("utf8");
        head = null;
        return Buffer.from(inline!(html));
      };
      const body = new Transform({
        transform: (chunk: Buffer, _encoding, done) => {
          if (!head) return done(null, chunk);
          head.push(chunk);
          // Checked on the whole so far: the tag may come split over two chunks.
          done(null, Buffer.concat(head).includes("</head>") ? sendHead() : undefined);
        },
        flush(done) {
          clearTimeout(timer);
          done(null, head ? sendHead() : undefined);
        },
      });
      setHeaders(contentSecurityPolicy({ nonce }));
      resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(app(routerContext, request.url, nonce), {
      nonce,
      ...(waitForAll ? { ...WHOLE, onAllReady: ready } : { onShellReady: ready }),
      onShellError: (error) => {
        clearTimeout(timer);
        reject(error as Error);
      },
      onError(error: unknown) {
        status = 500;
        // Errors before the shell reject and are logged by React Router (handleError below).
        if (shellRendered) log.error("render failed", error);
      },
    });
    const timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const log = (context as AppLoadContext | undefined)?.larder?.log;
  // A thrown 5xx response from the router carries the original error.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const detail = inner ?? error;
  if (log) log.error(`${request.method} ${new URL(request.url).pathname} failed`, detail);
  else console.error(detail);
};
