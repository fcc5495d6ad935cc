/**
 * A minimal keep-alive HTTP client for 127.0.0.1 (node:http, one socket reused): per-request
 * overhead on the client side stays small next to what is measured, unlike fetch.
 */
import { Agent, request } from "node:http";

export interface Reply {
  status: number;
  body: string;
  ms: number;
}

export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    readonly port: number,
    readonly token: string,
  ) {}

  get(path: string, opts: { auth?: boolean; page?: boolean } = {}): Promise<Reply> {
    return this.send("GET", path, undefined, opts);
  }

  /**
   * Any method; a body is sent as JSON. `page`: as a signed-in browser asks for a page, the token in
   * the session cookie and HTML accepted.
   */
  send(
    method: string,
    path: string,
    body?: unknown,
    opts: { auth?: boolean; page?: boolean } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { accept: opts.page ? "text/html" : "application/json" };
    if (opts.page) headers.cookie = `mealie.access_token=${this.token}`;
    else if (opts.auth ?? true) headers.authorization = `Bearer ${this.token}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers["content-type"] = "application/json";
    const t0 = performance.now();
    return new Promise((ok, fail) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: this.port,
          path,
          method,
          headers,
          agent: this.agent,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            ok({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              ms: performance.now() - t0,
            }),
          );
          res.on("error", fail);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${path}`)));
      req.on("error", fail);
      req.end(payload);
    });
  }

  async json<T>(path: string): Promise<T> {
    const r = await this.get(path);
    if (r.status !== 200) throw new Error(`bench: GET ${path} → ${r.status}: ${r.body.slice(0, 300)}`);
    return JSON.parse(r.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Nearest-rank percentile of samples (ms). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}
