/**
 * Server entry: React Router's default Node entry (streaming SSR; bots get the whole document at once), plus
 * a few response headers and error logging through Larder's logger (404s are not errors worth a log line).
 * A page rendered before from the same inputs is served from the render cache (lib/render-cache.server.ts,
 * decision 0115) with this response's nonce, without rendering it again.
 */
import { randomBytes } from "node:crypto";
import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { contentSecurityPolicy } from "./lib/csp.server.js";
import { NonceContext } from "./lib/nonce.js";
import { RenderCache, renderKey } from "./lib/render-cache.server.js";

export const renderCache = new RenderCache();

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

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  // A fresh nonce per page: the only inline scripts that run are the ones this response rendered.
  const nonce = randomBytes(16).toString("base64");
  const setHeaders = () => {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // Pages show a signed-in user's data: never keep them in a shared cache.
    if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
    responseHeaders.set("X-Content-Type-Options", "nosniff");
    responseHeaders.set("Referrer-Policy", "strict-origin-when-cross-origin");
    responseHeaders.set("X-Frame-Options", "SAMEORIGIN");
    responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  };
  const key = renderInputs(request, responseStatusCode, routerContext, waitForAll);
  const cached = key ? renderCache.get(key, nonce) : null;
  if (cached) {
    setHeaders();
    return Promise.resolve(
      new Response(cached as Uint8Array<ArrayBuffer>, {
        headers: responseHeaders,
        status: responseStatusCode,
      }),
    );
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const ready = () => {
      shellRendered = true;
      const chunks: Buffer[] = [];
      // Passes the page through as it streams, and keeps a copy for the cache if it ends well.
      const body = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (key) chunks.push(chunk);
          done(null, chunk);
        },
        flush(done) {
          if (key && !failed) renderCache.set(key, Buffer.concat(chunks), nonce);
          done();
        },
      });
      setHeaders();
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError: reject,
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by React Router (handleError below).
          if (shellRendered) loadContext.larder.log.error("render failed", error);
        },
      },
    );
    setTimeout(() => {
      failed = true;
      abort();
    }, streamTimeout + 1_000);
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
