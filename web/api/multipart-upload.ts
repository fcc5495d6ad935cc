/**
 * A multipart/form-data upload streamed to a file in the data folder's temp area, for uploads too large
 * to hold in memory (migrations: app exports, Mealie backups). The size cap is enforced as bytes
 * arrive: a declared Content-Length over it is refused before reading, and a body that grows past it
 * is cut off, its partial file removed, and answered 413. Only one file field is taken.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import busboy from "busboy";
import { PayloadTooLargeError, ValidationError } from "../../core/errors.js";

export interface StreamedUpload {
  fields: Record<string, string>;
  /** The file's path in the temp area; the caller removes it. Null when the field was absent. */
  file: { path: string; filename: string; size: number } | null;
}

export async function streamMultipartToFile(
  req: IncomingMessage,
  opts: { tmpDir: string; field: string; maxBytes: number; res?: ServerResponse },
): Promise<StreamedUpload> {
  /**
   * Stop reading the body without reading the rest of it: the answer goes out with `Connection: close`
   * and the socket is closed once it is sent, so a client still sending gigabytes is cut off.
   */
  const stopReading = () => {
    req.pause();
    if (opts.res && !opts.res.headersSent) {
      opts.res.setHeader("Connection", "close");
      opts.res.once("finish", () => req.socket.destroy());
    } else req.socket.destroy();
  };
  const ct = String(req.headers["content-type"] ?? "");
  if (!ct.toLowerCase().startsWith("multipart/form-data")) {
    throw new ValidationError([{ loc: ["body"], msg: "Expected multipart/form-data", type: "value_error" }]);
  }
  const malformed = (e: Error) =>
    new ValidationError([
      { loc: ["body"], msg: `Malformed multipart body: ${e.message}`, type: "value_error" },
    ]);
  const tooLarge = () => new PayloadTooLargeError(`The upload is larger than ${opts.maxBytes} bytes`);
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (Number.isFinite(declared) && declared > opts.maxBytes + 64 * 1024) {
    stopReading();
    throw tooLarge();
  }
  await mkdir(opts.tmpDir, { recursive: true });
  const path = join(opts.tmpDir, `upload-${randomUUID()}`);
  let out: WriteStream | null = null;
  try {
    return await new Promise<StreamedUpload>((resolve, reject) => {
      let bb: busboy.Busboy;
      try {
        bb = busboy({
          headers: req.headers,
          limits: { fileSize: opts.maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
        });
      } catch (e) {
        reject(malformed(e as Error));
        return;
      }
      const fields: Record<string, string> = {};
      let file: StreamedUpload["file"] = null;
      let pending: Promise<void> = Promise.resolve();
      let failed = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        req.unpipe(bb);
        stopReading();
        reject(e);
      };
      // A body that ends inside a part (the request complete, the form not) destroys that part's
      // stream with busboy's error: unheard, it was an uncaught exception.
      const partFailed = (e: Error) => fail(malformed(e));
      bb.on("field", (name, value) => {
        fields[name] = value;
      });
      bb.on("file", (name, stream, info) => {
        stream.on("error", partFailed);
        if (name !== opts.field || file) {
          stream.resume();
          return;
        }
        const to = (out = createWriteStream(path, { mode: 0o600 }));
        stream.on("error", () => to.destroy());
        let size = 0;
        pending = new Promise<void>((res, rej) => {
          to.on("finish", () => res());
          to.on("error", (e) => (failed ? res() : rej(e)));
        });
        stream.on("data", (c: Buffer) => {
          if (failed) return;
          size += c.length;
          // Back-pressure: a slow disk slows the upload instead of filling memory.
          if (!to.write(c)) {
            stream.pause();
            to.once("drain", () => stream.resume());
          }
        });
        stream.on("limit", () => {
          to.destroy();
          fail(tooLarge());
        });
        stream.on("end", () => {
          if (failed) return;
          file = { path, filename: info.filename ?? "", size };
          to.end();
        });
      });
      bb.on("filesLimit", () => fail(new PayloadTooLargeError("Only one file may be uploaded")));
      bb.on("error", partFailed);
      bb.on("close", () => {
        if (failed) return;
        pending.then(
          () => resolve({ fields, file }),
          (e: unknown) => reject(e as Error),
        );
      });
      req.on("aborted", () =>
        fail(
          new ValidationError([{ loc: ["body"], msg: "The upload was interrupted", type: "value_error" }]),
        ),
      );
      req.pipe(bb);
    });
  } catch (e) {
    const written = out as WriteStream | null;
    if (written) {
      // Removed once closed: a stream still opening its file would otherwise create it after the rm.
      if (!written.closed) await new Promise<void>((r) => written.destroy().once("close", () => r()));
      await rm(path, { force: true });
    }
    throw e;
  }
}
