/**
 * A local HTTP server standing in for a remote service (a webhook receiver, ntfy, Gotify, Discord…):
 * it records every request and answers as the test tells it to, on 127.0.0.1 only.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer one request: a status and body, or `hang` to hold it open and never answer. */
export type Answer = { status?: number; body?: string; contentType?: string } | "hang";

export interface Recorder {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Answer the next requests with these, in order (then 200 "ok"). */
  answers: Answer[];
  /** Answers for one path, taken before `answers`. */
  answersFor: Record<string, Answer[]>;
  /** Resolves with the next request to arrive (or one that already arrived after `count`). */
  next(count?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const answers: Answer[] = [];
  const answersFor: Record<string, Answer[]> = {};
  const waiters: Array<{ index: number; resolve: (r: RecordedRequest) => void }> = [];
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://recorder");
      const rec: RecordedRequest = {
        method: req.method ?? "",
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(rec);
      const answer = answersFor[rec.path]?.shift() ?? answers.shift() ?? {};
      for (const w of [...waiters]) {
        if (w.index < requests.length) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(requests[w.index]);
        }
      }
      if (answer === "hang") {
        held.add(res);
        return;
      }
      res.writeHead(answer.status ?? 200, { "content-type": answer.contentType ?? "text/plain" });
      res.end(answer.body ?? "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    answers,
    answersFor,
    next(count = requests.length) {
      if (count < requests.length) return Promise.resolve(requests[count]);
      return new Promise((resolve) => waiters.push({ index: count, resolve }));
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
