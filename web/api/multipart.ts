/**
 * multipart/form-data bodies (uploads), streamed through busboy with limits: files are buffered up to
 * `maxFileBytes` each (413 past it), fields are bounded, and a malformed body is a 422.
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
      reject(new ValidationError([{ loc: ["body"], msg: `Malformed multipart body: ${(e as Error).message}`, type: "value_error" }]));
      return;
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    bb.on("field", (name, value) => {
      fields[name] = value;
    });
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => fail(new PayloadTooLargeError("Uploaded file is too large")));
      stream.on("end", () => {
        if (!failed) files.push({ field, filename: info.filename ?? "", mimeType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    bb.on("filesLimit", () => fail(new PayloadTooLargeError("Too many files")));
    bb.on("error", (e: Error) => fail(new ValidationError([{ loc: ["body"], msg: `Malformed multipart body: ${e.message}`, type: "value_error" }])));
    bb.on("close", () => {
      if (!failed) resolve({ fields, files, file: (name) => files.find((f) => f.field === name) });
    });
    req.pipe(bb);
  });
}
