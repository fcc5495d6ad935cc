/**
 * A stand-in for an OpenAI-compatible chat completions server, on loopback, for tests: it records what
 * it was sent and answers with whatever the test scripts (an answer, garbage, a 429, silence).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: { model?: string; messages?: Array<{ role: string; content: unknown }>; response_format?: { type: string }; [k: string]: unknown };
}

/** What to answer: a chat reply's content, a raw response, or nothing at all (a hang). */
export type Reply =
  | { content: string }
  | { status: number; body: string; headers?: Record<string, string> }
  | { hang: true };

export interface ChatStandIn {
  /** `http://127.0.0.1:port/v1` */
  baseUrl: string;
  requests: ChatRequest[];
  /** Answers in order; when they run out, `fallback` decides. */
  replies: Reply[];
  fallback: (req: ChatRequest) => Reply;
  close(): Promise<void>;
}

export function chatCompletion(content: string, model = "stand-in"): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

export async function startChatStandIn(fallback: (req: ChatRequest) => Reply = () => ({ content: "{}" })): Promise<ChatStandIn> {
  const hanging = new Set<http.ServerResponse>();
  const standIn: ChatStandIn = { baseUrl: "", requests: [], replies: [], fallback, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let body: ChatRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest["body"];
      } catch {
        // recorded as empty: the test sees it
      }
      const recorded: ChatRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      standIn.requests.push(recorded);
      const reply = standIn.replies.shift() ?? standIn.fallback(recorded);
      if ("hang" in reply) {
        hanging.add(res);
        return;
      }
      if ("content" in reply) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(chatCompletion(reply.content, body.model));
        return;
      }
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  standIn.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
