/**
 * Local servers for the guarded-fetch tests. Everything listens on 127.0.0.1 / ::1 only: the
 * tests must prove refusals without any packet leaving the machine, so blocked targets are
 * either literal addresses that are refused before connecting or names mapped by an injected
 * resolver.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { PassThrough, Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import zlib from "node:zlib";
import type { Resolver } from "./guarded-fetch.js";

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
/** Self-signed certificate for "larder.test" (generated for these tests; valid until 2126). */
export const TEST_CERT = fixture("larder-test.cert.pem");
const TEST_KEY = fixture("larder-test.key.pem");

export const MiB = 1024 * 1024;

export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  servername?: string;
}

export interface TestServers {
  /** http://127.0.0.1:port */
  v4: string;
  v4Port: number;
  /** http://[::1]:port */
  v6: string;
  v6Port: number;
  /** https on 127.0.0.1, certificate for larder.test */
  tlsPort: number;
  /** Plain TCP on 127.0.0.1 that accepts and never says anything. */
  silentPort: number;
  requests: Recorded[];
  /** Bytes the last /huge response managed to write before the client hung up (-1 while it runs). */
  hugeSent(): number;
  /**
   * Called each time a /huge response has to wait for the client to read (its socket is full), with
   * the bytes written so far: a client that buffered the body would keep reading and rarely stop it.
   */
  onHugeBlocked(listener: ((sent: number) => void) | null): void;
  close(): Promise<void>;
}

/** Compress `size` zero bytes without ever holding them: the classic decompression bomb. */
export async function zeroBomb(size: number, encoder: zlib.Gzip | zlib.BrotliCompress): Promise<Buffer> {
  const zeros = Buffer.alloc(MiB);
  const chunks: Buffer[] = [];
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < size / MiB; i++) yield zeros;
      })(),
    ),
    encoder,
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        cb();
      },
    }),
  );
  return Buffer.concat(chunks);
}

/** A resolver for made-up names; anything else fails, so a test can never reach real DNS. */
export function fakeResolver(table: Record<string, string[]>, calls: string[] = []): Resolver {
  return async (hostname) => {
    calls.push(hostname);
    const addrs = table[hostname];
    if (!addrs) throw Object.assign(new Error(`fake resolver: ${hostname} unknown`), { code: "ENOTFOUND" });
    return addrs.map((address) => ({ address }));
  };
}

/** A sink that counts and discards, standing in for a file on disk. */
export function countingSink(): Writable & { bytes: number } {
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      sink.bytes += chunk.length;
      cb();
    },
  }) as Writable & { bytes: number };
  sink.bytes = 0;
  return sink;
}

interface Bombs {
  gzip: Buffer;
  br: Buffer;
}

interface HugeStats {
  hugeSent: number;
  blocked: ((sent: number) => void) | null;
}

function handler(requests: Recorded[], bombs: Bombs, stats: HugeStats): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const body = Buffer.concat(chunks).toString();
      const servername = (req.socket as { servername?: string | false }).servername || undefined;
      requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, body, servername });
      const q = url.searchParams;
      const text = (
        status: number,
        type: string | null,
        payload: string | Buffer,
        extra: http.OutgoingHttpHeaders = {},
      ): void => {
        res.writeHead(status, { ...(type ? { "content-type": type } : {}), ...extra });
        res.end(payload);
      };
      const p = url.pathname;
      if (p === "/ok") return text(200, "text/plain", "hello");
      if (p === "/echo")
        return text(
          200,
          "application/json",
          JSON.stringify({ method: req.method, headers: req.headers, body }),
        );
      if (p === "/html") return text(200, "text/html; charset=utf-8", "<h1>soup</h1>");
      if (p === "/png") return text(200, "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      if (p === "/noct") return text(200, null, "mystery");
      if (p.startsWith("/status/")) return text(Number(p.slice(8)), "text/plain", "status");
      if (p === "/redirect")
        return text(Number(q.get("status") ?? 302), null, "", { location: q.get("to") ?? "/ok" });
      if (p === "/loop") return text(302, null, "", { location: "/loop" });
      if (p === "/never") return; // hold the request open forever
      if (p === "/stall") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first bytes, then nothing");
        return;
      }
      if (p === "/huge") return sendHuge(res, Number(q.get("mb") ?? 100) * MiB, q.has("declared"), stats);
      if (p === "/encoded") {
        const plain = Buffer.from("soup ".repeat(2000));
        const enc = q.get("enc") ?? "";
        const encoded =
          enc === "gzip"
            ? zlib.gzipSync(plain)
            : enc === "deflate"
              ? zlib.deflateSync(plain)
              : enc === "deflate-raw"
                ? zlib.deflateRawSync(plain)
                : enc === "br"
                  ? zlib.brotliCompressSync(plain)
                  : plain;
        return text(200, "text/plain", encoded, {
          "content-encoding": enc === "deflate-raw" ? "deflate" : enc,
        });
      }
      if (p === "/bomb")
        return text(200, "text/html", q.get("enc") === "br" ? bombs.br : bombs.gzip, {
          "content-encoding": q.get("enc") ?? "gzip",
        });
      text(404, "text/plain", "no such route");
    });
  };
}

/** Stream `total` bytes honouring backpressure, so the server itself stays flat too. */
function sendHuge(res: http.ServerResponse, total: number, declared: boolean, stats: HugeStats): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  res.writeHead(200, {
    "content-type": "application/octet-stream",
    ...(declared ? { "content-length": total } : {}),
  });
  stats.hugeSent = -1;
  res.on("close", () => (stats.hugeSent = sent));
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        stats.blocked?.(sent);
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  pump();
}

function listen(server: net.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve((server.address() as net.AddressInfo).port));
  });
}

export async function startTestServers(opts: { bombs?: boolean } = {}): Promise<TestServers> {
  const requests: Recorded[] = [];
  const stats: HugeStats = { hugeSent: 0, blocked: null };
  const bombs: Bombs = opts.bombs
    ? {
        gzip: await zeroBomb(256 * MiB, zlib.createGzip({ level: 9 })),
        br: await zeroBomb(
          256 * MiB,
          zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
        ),
      }
    : { gzip: Buffer.alloc(0), br: Buffer.alloc(0) };
  const onRequest = handler(requests, bombs, stats);
  const v4 = http.createServer(onRequest);
  const v6 = http.createServer(onRequest);
  const tls = https.createServer({ cert: TEST_CERT, key: TEST_KEY }, onRequest);
  const held = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    held.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => held.delete(socket));
    socket.pipe(new PassThrough()).resume(); // read and ignore, never answer
  });
  const [v4Port, v6Port, tlsPort, silentPort] = await Promise.all([
    listen(v4, "127.0.0.1"),
    listen(v6, "::1"),
    listen(tls, "127.0.0.1"),
    listen(silent, "127.0.0.1"),
  ]);
  return {
    v4: `http://127.0.0.1:${v4Port}`,
    v4Port,
    v6: `http://[::1]:${v6Port}`,
    v6Port,
    tlsPort,
    silentPort,
    requests,
    hugeSent: () => stats.hugeSent,
    onHugeBlocked: (listener) => (stats.blocked = listener),
    async close() {
      for (const s of held) s.destroy();
      for (const srv of [v4, v6, tls]) srv.closeAllConnections();
      await Promise.all([v4, v6, tls, silent].map((srv) => new Promise((r) => srv.close(r))));
    },
  };
}

/**
 * V8's collector, exposed at runtime the way Jest's leak detector does it, so each measurement
 * starts from a collected heap rather than from whatever the previous test left behind.
 */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  v8.setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  v8.setFlagsFromString("--no-expose-gc");
  return gc;
}

export interface MemoryPeak<T> {
  outcome: PromiseSettledResult<T>;
  rss: number;
  arrayBuffers: number;
}

/**
 * Peak growth of rss and arrayBuffers while `fn` runs, sampled every 2 ms. No GC is forced
 * meanwhile, so the figures include buffers already unreferenced but not yet collected: an upper
 * bound on what the fetch holds.
 */
export async function measurePeak<T>(fn: () => Promise<T>): Promise<MemoryPeak<T>> {
  collector()();
  const base = process.memoryUsage();
  let rss = 0;
  let arrayBuffers = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss - base.rss);
    arrayBuffers = Math.max(arrayBuffers, m.arrayBuffers - base.arrayBuffers);
  };
  const timer = setInterval(sample, 2);
  let outcome: PromiseSettledResult<T>;
  try {
    outcome = { status: "fulfilled", value: await fn() };
  } catch (reason) {
    outcome = { status: "rejected", reason };
  } finally {
    clearInterval(timer);
    sample();
  }
  return { outcome, rss, arrayBuffers };
}
