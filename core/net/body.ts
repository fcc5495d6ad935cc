/**
 * Response bodies: decompression and size caps, applied while streaming so that neither a huge
 * file nor a small gzip bomb is ever held in memory beyond the cap. Every stage is a Node stream
 * joined by `pipeline`, which propagates backpressure (the socket pauses when nobody reads) and
 * tears every stage down, socket included, the moment one of them fails.
 */
import type { IncomingMessage } from "node:http";
import { Transform, pipeline, type Readable, type TransformCallback } from "node:stream";
import zlib from "node:zlib";
import { FetchFailedError, ResponseTooLargeError } from "./errors.js";

/** What we tell servers we can decode; anything else they send is refused, not passed through raw. */
export const ACCEPT_ENCODING = "gzip, deflate, br";
/** More stacked encodings than this is not something a real server does. */
const MAX_ENCODINGS = 2;

/** Counts bytes through one stage and fails the pipeline once they pass `limit`. */
class ByteCap extends Transform {
  private seen = 0;
  constructor(
    private readonly limit: number,
    private readonly onExceed: () => Error,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) cb(this.onExceed());
    else cb(null, chunk);
  }
}

/**
 * The stream handed to callers. Its only job is translating whatever error tore the pipeline
 * down (socket reset, zlib data error, our own cap/timeout) into the typed error callers expect,
 * because `pipeline` destroys the last stage with the raw first error.
 */
class Outlet extends Transform {
  constructor(private readonly mapError: (err: Error) => Error) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    cb(null, chunk);
  }
  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    cb(err ? this.mapError(err) : null);
  }
}

/** `gzip, br` → ["gzip", "br"], without identity; in the order the server applied them. */
export function parseContentEncoding(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s && s !== "identity");
}

/** Wait until `res` has data, ends, or fails; listeners are removed either way. */
function nextReadable(res: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err?: Error): void => {
      res.off("readable", ok).off("end", ok).off("close", ok).off("error", settle);
      if (err) reject(err);
      else resolve();
    };
    const ok = (): void => settle();
    res.once("readable", ok).once("end", ok).once("close", ok).once("error", settle);
  });
}

/** The first `n` bytes (fewer if the body is shorter), pushed back so the pipeline still reads them. */
async function peek(res: Readable, n: number): Promise<Buffer> {
  const got: Buffer[] = [];
  let len = 0;
  while (len < n && !res.readableEnded && !res.destroyed) {
    const chunk = res.read() as Buffer | null;
    if (chunk) {
      got.push(chunk);
      len += chunk.length;
    } else {
      await nextReadable(res);
    }
  }
  const head = Buffer.concat(got);
  // A body under n bytes has already ended and cannot take data back; it is not valid deflate anyway.
  if (head.length && !res.readableEnded) res.unshift(head);
  return head;
}

/** A zlib-wrapped deflate stream starts with CMF/FLG whose 16-bit value is a multiple of 31. */
function looksLikeZlib(head: Buffer): boolean {
  return head.length >= 2 && (head[0] & 0x0f) === 8 && ((head[0] << 8) | head[1]) % 31 === 0;
}

function decoderFor(encoding: string, rawDeflate: boolean): Transform | null {
  // Lenient flush modes, as browsers are: a body truncated at a block boundary still decodes.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(flush);
    case "deflate":
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; browsers accept both.
      return rawDeflate ? zlib.createInflateRaw(flush) : zlib.createInflate(flush);
    case "br":
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return null;
  }
}

export interface BodyOptions {
  url: string;
  maxBytes: number;
  /** HEAD and 204/304 responses have no body to decode even if they name an encoding. */
  bodyless: boolean;
  mapError: (err: Error) => Error;
}

/**
 * The decoded, capped body of `res` as a readable stream. The cap applies twice: to bytes off the
 * wire and to the output of every decoder, so a bomb stops at `maxBytes` of decoded output
 * however well it compresses, and nothing larger than one stream buffer is held meanwhile.
 */
export async function bodyStream(res: IncomingMessage, opts: BodyOptions): Promise<Readable> {
  const encodings = opts.bodyless ? [] : parseContentEncoding(res.headers["content-encoding"]);
  if (encodings.length > MAX_ENCODINGS) {
    res.destroy();
    throw new FetchFailedError(opts.url, `too many content encodings: ${encodings.join(", ")}`);
  }
  const stages: Transform[] = [
    new ByteCap(opts.maxBytes, () => new ResponseTooLargeError(opts.url, opts.maxBytes, "wire")),
  ];
  // Decoding runs in reverse of application order.
  for (let i = encodings.length - 1; i >= 0; i--) {
    const enc = encodings[i];
    const rawDeflate = enc === "deflate" && i === encodings.length - 1 && !looksLikeZlib(await peek(res, 2));
    const decoder = decoderFor(enc, rawDeflate);
    if (!decoder) {
      res.destroy();
      throw new FetchFailedError(opts.url, `unsupported content encoding "${enc}"`);
    }
    stages.push(
      decoder,
      new ByteCap(opts.maxBytes, () => new ResponseTooLargeError(opts.url, opts.maxBytes, "decoded")),
    );
  }
  const outlet = new Outlet(opts.mapError);
  pipeline([res, ...stages, outlet], () => {
    // Errors reach the caller through `outlet`; nothing to do here, but pipeline requires a callback.
  });
  return outlet;
}

/** Read a (capped) body stream to one Buffer. */
export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Does a Content-Type header satisfy one of `patterns` ("text/html", "image/*", "*\/*")?
 * Parameters such as charset are ignored; a missing header satisfies nothing.
 */
export function contentTypeMatches(header: string | undefined, patterns: readonly string[]): boolean {
  const mediaType = (header ?? "").split(";")[0].trim().toLowerCase();
  if (!mediaType.includes("/")) return false;
  return patterns.some((raw) => {
    const p = raw.trim().toLowerCase();
    if (p === "*/*" || p === "*") return true;
    if (p.endsWith("/*")) return mediaType.startsWith(p.slice(0, -1));
    return mediaType === p;
  });
}
