/**
 * The last line of defence of `larder serve`: an exception no code path caught must not stop the
 * server for everyone. Every request runs in an AsyncLocalStorage scope; an uncaught exception or
 * unhandled rejection raised while serving it (a stream's 'error' with no listener, a throw in a
 * timer a handler set) is logged and answered with a 500 on that request's own connection, and the
 * process carries on. Errors that belong to no request are logged and the process carries on too:
 * the server's state (the index, the lock) lives in files and is re-checked on every write, and a
 * supervisor restarting it would drop every other client's request (docs/deploy.md).
 */
import { withActorScope } from "../../core/actor-scope.js";
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../core/log/logger.js";

interface RequestScope {
  req: IncomingMessage;
  res: ServerResponse;
  label: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Run `fn` (the handling of one request) so that anything it leaves uncaught is traced back to it. */
export function withRequestScope<T>(req: IncomingMessage, res: ServerResponse, fn: () => T): T {
  // Socket-level errors (a reset mid-body) are emitted on these; with no listener each would be uncaught.
  req.on("error", () => undefined);
  res.on("error", () => undefined);
  const label = `${req.method ?? "?"} ${(req.url ?? "/").split("?")[0]}`;
  // The actor scope too: what core does for this request can tell who asked (git autocommit's author).
  return scope.run({ req, res, label }, () => withActorScope(fn));
}

/** Answer the request an escaped error belongs to (if any) with a 500; true when one was found. */
export function failCurrentRequest(e: unknown, log: Logger, kind = "uncaught exception"): boolean {
  const s = scope.getStore();
  if (!s) {
    log.error(`${kind} outside any request (the server keeps running)`, e);
    return false;
  }
  log.error(`${kind} while serving ${s.label} (answered 500; the server keeps running)`, e);
  const { res } = s;
  try {
    if (!res.headersSent) {
      const text = JSON.stringify({ detail: { message: "Unknown Error", error: true, exception: "Error" } });
      res.writeHead(500, {
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(text),
        Connection: "close",
      });
      res.end(text);
    } else {
      // Half an answer is already out: cutting the connection is the only honest end.
      res.destroy();
    }
    // A body still arriving would otherwise keep the socket busy until the request timeout.
    if (!s.req.complete) s.req.resume();
  } catch (inner) {
    log.error("could not answer the failed request", inner);
  }
  return true;
}

let installed: (() => void) | null = null;

/** Install the process-wide handlers (once); returns a function that removes them. */
export function installCrashGuard(log: Logger): () => void {
  if (installed) return installed;
  const onException = (e: Error) => void failCurrentRequest(e, log, "uncaught exception");
  const onRejection = (e: unknown) => void failCurrentRequest(e, log, "unhandled rejection");
  // Once whoever read the output has gone (`larder serve | head`, a log shipper that stopped), every
  // log line fails with EPIPE. Unheard, each failure was an uncaught exception whose own log line
  // failed again: the server spun at full CPU, stopped answering and never finished a SIGTERM. Lines
  // nobody can read are dropped, and the server carries on.
  const dropLine = () => undefined;
  process.stdout.on("error", dropLine);
  process.stderr.on("error", dropLine);
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  installed = () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
    process.stdout.off("error", dropLine);
    process.stderr.off("error", dropLine);
    installed = null;
  };
  return installed;
}
