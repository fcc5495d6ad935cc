/**
 * Dispatches one /api request: authenticate, route, run, answer in Mealie's wire format.
 * Errors become Mealie's shapes (mealie-api-notes §1); anything unexpected is a 500 that does not leak.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ZodError } from "zod";
import { validationDetail, type IssueSource } from "../../core/wire/validation-detail.js";
import { canonicalPathParams, pathParamProblems, unbuiltContractPath } from "./path-params.js";
import { PUBLIC, type Actor } from "../../core/actor.js";
import {
  ForbiddenError,
  isLarderError,
  storageError,
  UnauthorizedError,
  type LarderError,
} from "../../core/errors.js";
import {
  apiMessageLanguage,
  localizeErrorBody,
  type ApiMessageLanguage,
} from "../../core/i18n/api-messages.js";
import type { Larder } from "../../core/larder.js";
import { ApiContext } from "./context.js";
import { JsonBytes, Reply } from "./reply.js";
import type { Router } from "./router.js";
import { SESSION_COOKIE, readCookie as readCookieHeader } from "../server/edge.js";

// Cookies and the same-origin rule live in web/server/edge.ts, shared with the UI; server.ts applies the
// rule to every request before this handler runs.
export { SESSION_COOKIE };
export const readCookie = (header: string | undefined, name: string): string | null =>
  readCookieHeader(header, name);

export function createApiHandler(larder: Larder, router: Router) {
  return async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = (req.method ?? "GET").toUpperCase();
    let headers: Record<string, string> = {};
    // Error messages follow Accept-Language (decision 0107); English, and the exact wire text, otherwise.
    const lang = apiMessageLanguage(req.headers["accept-language"]);
    const fail = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      send(res, status, localizeErrorBody(body, lang), lang ? { ...extra, "Content-Language": lang } : extra);
    let ctx: ApiContext | null = null;
    try {
      const match = router.match(method, url.pathname);
      const ours =
        match && match !== "method" ? match.route.path : (router.routeForPath(url.pathname)?.path ?? null);
      const unbuilt = unbuiltContractPath(method, url.pathname, ours);
      if (unbuilt) {
        const message = `${method} ${unbuilt} is part of Mealie's API but not available in this version of Larder`;
        return fail(404, { detail: { message, error: true, exception: null } });
      }
      if (match === null) return fail(404, { detail: "Not Found" });
      if (match === "method") return fail(405, { detail: "Method Not Allowed" });
      const { route, params } = match;

      let actor: Actor = PUBLIC;
      if (route.auth !== "public") {
        actor = await authenticate(larder, req, route.auth !== "optional");
      }
      if (route.auth === "admin" && (actor.kind !== "user" || !actor.user.admin)) {
        throw new ForbiddenError("Forbidden", "Forbidden");
      }
      // After authentication, as FastAPI resolves the user before it reports parameter errors. Public
      // routes (media, shared links) keep answering 404 for anything that names nothing (decision 0062).
      const badParams = route.auth === "public" ? null : pathParamProblems(method, url.pathname, route.path);
      if (badParams) return fail(422, { detail: badParams });
      ctx = new ApiContext(
        larder,
        req,
        res,
        url,
        canonicalPathParams(method, url.pathname, route.path, params),
        actor,
      );
      const result = await route.handler(ctx);
      headers = ctx.headers;
      if (res.headersSent || res.writableEnded) return;
      // A signed-in answer is that person's: no shared cache may keep it, and none is reused unchecked.
      if (actor.kind === "user" && !Object.keys(headers).some((k) => k.toLowerCase() === "cache-control"))
        headers = { ...headers, "Cache-Control": "private, no-cache" };
      if (result instanceof Reply) {
        if (result.raw)
          return sendRaw(
            res,
            result.status,
            result.body as Buffer,
            { ...headers, ...result.headers },
            method,
          );
        return send(res, result.status, result.body, { ...headers, ...result.headers });
      }
      if (result instanceof JsonBytes) return sendBytes(res, result.bytes, headers);
      return send(res, 200, result === undefined ? null : result, headers);
    } catch (e) {
      if (req.readable) req.resume();
      const source = e instanceof ZodError && ctx ? await ctx.bodyIfRead() : null;
      return sendError(res, e, headers, larder, lang, source);
    }
  };
}

async function authenticate(larder: Larder, req: IncomingMessage, required: boolean): Promise<Actor> {
  const auth = req.headers.authorization;
  let token: string | null = null;
  if (auth && /^bearer\s+/i.test(auth)) token = auth.replace(/^bearer\s+/i, "").trim();
  if (!token) token = readCookie(req.headers.cookie, SESSION_COOKIE);
  if (!token) {
    if (required) throw new UnauthorizedError(auth ? "Could not validate credentials" : "Not authenticated");
    return PUBLIC;
  }
  const actor = await larder.auth.authenticateToken(token);
  if (!actor) {
    if (required) throw new UnauthorizedError();
    return PUBLIC;
  }
  return actor;
}

const sendJson = send;

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** `send` of a 200 whose JSON text is already bytes: the same headers, in the same order. */
function sendBytes(res: ServerResponse, bytes: Buffer, headers: Record<string, string>): void {
  res.writeHead(200, {
    "Content-Type": "application/json",
    "Content-Length": bytes.length,
    ...headers,
  });
  res.end(bytes);
}

function sendRaw(
  res: ServerResponse,
  status: number,
  data: Buffer,
  headers: Record<string, string>,
  method: string,
): void {
  res.writeHead(status, { "Content-Length": data.length, ...headers });
  res.end(method === "HEAD" ? undefined : data);
}

function sendError(
  res: ServerResponse,
  e: unknown,
  given: Record<string, string>,
  larder: Larder,
  lang: ApiMessageLanguage | null,
  source: IssueSource | null = null,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers = lang ? { ...given, "Content-Language": lang } : given;
  const send = (r: ServerResponse, status: number, body: unknown, h: Record<string, string>) =>
    sendJson(r, status, localizeErrorBody(body, lang), h);
  if (isLarderError(e)) {
    const err = e as LarderError;
    const extra: Record<string, string> = err.status === 401 ? { "WWW-Authenticate": "Bearer" } : {};
    if (err.status === 413) extra.Connection = "close";
    return send(res, err.status, err.body(), { ...headers, ...extra });
  }
  if (e instanceof ZodError) return send(res, 422, { detail: validationDetail(e, "body", source) }, headers);
  const storage = storageError(e);
  if (storage) {
    larder.log.error(`a write to the data folder failed: ${storage.message}`, e);
    return send(res, storage.status, storage.body(), headers);
  }
  larder.log.error("unhandled error in /api", e);
  return send(
    res,
    500,
    { detail: { message: "Unknown Error", error: true, exception: (e as Error)?.name ?? "Error" } },
    headers,
  );
}
