/**
 * The answer to a request node's HTTP parser refuses before any handler sees it: a URL and headers
 * past node's 16 KB (a `queryFilter` of thousands of clauses), a malformed request line or header,
 * a request that took too long to arrive. Node's own answer is a status line with no body; this one
 * carries Mealie's `{"detail": …}` so a client shows why, as it does for every other refusal.
 */
import type { Duplex } from "node:stream";

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    "Request Header Fields Too Large",
    "The request's URL and headers are too long (at most 16 KB): send fewer or shorter query parameters",
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "The request took too long to arrive"],
};

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As node does: an answer only where none has begun, so a response already on its way is not corrupted.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== "ECONNRESET" && socket.writable && !inFlight?.headersSent) {
    const [status, reason, detail] = ANSWERS[error.code ?? ""] ?? [
      400,
      "Bad Request",
      "Malformed HTTP request",
    ];
    const body = JSON.stringify({ detail });
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
