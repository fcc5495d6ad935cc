/**
 * The built client assets (build/client), served by `send` (the file server behind express.static):
 * ETag and Last-Modified with 304s, byte ranges, HEAD, no dotfiles, and a stream that reports a read
 * error instead of crashing the process. A brotli or gzip twin written at build time
 * (`<file>.br`/`<file>.gz`, vite.config.ts) is sent instead of the file when the browser takes it.
 * Fingerprinted files under /assets are immutable.
 */
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import type sendType from "send";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/** Types worth a compressed twin; everything else (images, fonts, archives) is compressed already. */
export const COMPRESSIBLE = new Set([
  ".js",
  ".mjs",
  ".css",
  ".svg",
  ".json",
  ".txt",
  ".webmanifest",
  ".html",
]);

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** The twin to send for this Accept-Encoding, brotli first. */
async function encodedTwin(file: string, accept: string): Promise<{ path: string; encoding: string } | null> {
  if (!COMPRESSIBLE.has(extname(file))) return null;
  const takes = (coding: string) =>
    new RegExp(`(^|[,\\s])${coding}(?!;q=0(\\.0*)?(\\s|,|$))`, "i").test(accept);
  if (takes("br") && (await isFile(`${file}.br`))) return { path: `${file}.br`, encoding: "br" };
  if (takes("gzip") && (await isFile(`${file}.gz`))) return { path: `${file}.gz`, encoding: "gzip" };
  return null;
}

/**
 * `send` loads two copies of mime-db and indexes every type when it is evaluated; only a static file
 * needs it, so the API answers its first requests without waiting for that (decision 0139).
 */
let sendModule: Promise<typeof sendType> | null = null;
const loadSend = () => (sendModule ??= import("send").then((m) => m.default));

/** True when it answered the request from `root`. */
export async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  } catch {
    return false;
  }
  // Every built file has an extension; a page's path (/g/home/r/soup) is not looked up on disk at all.
  if (pathname.includes("\0") || pathname.endsWith("/") || !extname(pathname)) return false;
  const file = normalize(join(root, pathname));
  if (!file.startsWith(root + sep) || !(await isFile(file))) return false;

  const ext = extname(file);
  const twin = await encodedTwin(file, String(req.headers["accept-encoding"] ?? ""));
  if (COMPRESSIBLE.has(ext)) res.setHeader("Vary", "Accept-Encoding");
  res.setHeader("Content-Type", TYPES[ext] ?? "application/octet-stream");
  if (twin) res.setHeader("Content-Encoding", twin.encoding);
  const immutable = pathname.startsWith("/assets/");
  const send = await loadSend();
  await new Promise<void>((done) => {
    send(req, twin ? twin.path : file, {
      dotfiles: "deny",
      index: false,
      etag: true,
      lastModified: true,
      immutable,
      maxAge: immutable ? "1y" : "1h",
    })
      .on("error", (err: { status?: number }) => {
        // The file went away between the check and the read (a rebuild), or could not be read.
        res.removeHeader("Content-Encoding");
        if (!res.headersSent) {
          res.writeHead(err.status && err.status < 500 ? err.status : 500, {
            "Content-Type": "text/plain; charset=utf-8",
          });
        }
        res.end();
        done();
      })
      .on("end", done)
      .pipe(res);
    res.on("close", done);
  });
  return true;
}
