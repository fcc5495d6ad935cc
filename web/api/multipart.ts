/**
 * multipart/form-data bodies (uploads), streamed through busboy with limits: files are buffered up to
 * `maxFileBytes` each (413 past it), fields are bounded, and a malformed body is a 422.
 *
 * Every stream here has an 'error' listener: an EventEmitter that emits 'error' with none throws, and
 * from inside busboy's parser that throw is uncaught — one truncated upload used to stop the server.
 */
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { PayloadTooLargeError, ValidationError } from "../../core/errors.js";

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
  file(name: string): UploadedFile | undefined;
}

const malformed = (why: string) => new ValidationError([{ loc: ["body"], msg: `Malformed multipart body: ${why}`, type: "value_error" }]);

export function readMultipart(
  req: IncomingMessage,
  limits: { maxFileBytes: number; maxFiles?: number; maxFields?: number },
): Promise<MultipartBody> {
  const ct = String(req.headers["content-type"] ?? "");
  if (!ct.toLowerCase().startsWith("multipart/form-data")) {
    return Promise.reject(new ValidationError([{ loc: ["body"], msg: "Expected multipart/form-data", type: "value_error" }]));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles ?? 10, fields: limits.maxFields ?? 50, fieldSize: 1024 * 1024 },
      });
    } catch (e) {
      reject(malformed((e as Error).message));
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let pending = 0;
    let closed = false;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      // Drain what is left so the answer can be sent; a client that stopped sending is cut by the
      // server's request timeout.
      req.resume();
      reject(e);
    };
    const finish = () => {
      if (settled || !closed || pending > 0) return;
      settled = true;
      resolve({ fields, files, file: (name) => files.find((f) => f.field === name) });
    };
    bb.on("field", (name, value) => {
      fields[name] = value;
    });
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      let truncated = false;
      pending++;
      stream.on("error", (e: Error) => fail(malformed(e.message)));
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => {
        truncated = true;
        fail(new PayloadTooLargeError("Uploaded file is too large"));
      });
      stream.on("end", () => {
        pending--;
        if (!truncated) files.push({ field, filename: info.filename ?? "", mimeType: info.mimeType, data: Buffer.concat(chunks) });
        finish();
      });
    });
    bb.on("filesLimit", () => fail(new PayloadTooLargeError("Too many files")));
    bb.on("error", (e: Error) => fail(malformed(e.message)));
    bb.on("close", () => {
      closed = true;
      finish();
    });
    req.on("error", (e: Error) => fail(malformed(e.message)));
    // A client that goes away mid-body: busboy sees no end, so nothing else would settle the promise.
    req.on("aborted", () => fail(malformed("the request was aborted")));
    req.pipe(bb);
  });
}
