/**
 * multipart/form-data for UI actions (the recipe image upload), streamed through busboy — the same
 * parser web/api uses — so a file over the cap is refused while it arrives instead of after it has
 * been buffered whole. Replaces Remix 2's `unstable_parseMultipartFormData`, which React Router dropped.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { data } from "react-router";

export class MultipartLimitError extends Error {
  readonly status = 413;
}

export async function parseMultipartForm(
  request: Request,
  limits: { maxFileBytes: number; maxFiles?: number; maxFields?: number },
): Promise<FormData> {
  if (!request.body) return new FormData();
  const headers = Object.fromEntries(request.headers);
  return new Promise<FormData>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers,
        limits: {
          fileSize: limits.maxFileBytes,
          files: limits.maxFiles ?? 4,
          fields: limits.maxFields ?? 50,
          fieldSize: 1024 * 1024,
        },
      });
    } catch (e) {
      // No boundary, or not multipart at all.
      reject(data(`Malformed multipart body: ${(e as Error).message}`, { status: 400 }));
      return;
    }
    const form = new FormData();
    const body = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      body.unpipe(bb);
      body.destroy();
      reject(e);
    };
    // A body cut short or not multipart at all is the client's: 400, not the page's 500.
    const malformed = (e: Error) => fail(data(`Malformed multipart body: ${e.message}`, { status: 400 }));
    bb.on("field", (name, value) => form.append(name, value));
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      // A body that ends inside this part destroys its stream with busboy's error: unheard, it was an
      // uncaught exception.
      stream.on("error", malformed);
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("limit", () => fail(new MultipartLimitError("uploaded file exceeds the size limit")));
      stream.on("end", () => {
        if (!failed)
          form.append(field, new File([Buffer.concat(chunks)], info.filename ?? "", { type: info.mimeType }));
      });
    });
    bb.on("filesLimit", () => fail(new MultipartLimitError("too many files")));
    bb.on("fieldsLimit", () => fail(new MultipartLimitError("too many fields")));
    bb.on("error", malformed);
    bb.on("close", () => {
      if (!failed) resolve(form);
    });
    body.on("error", (e: Error) => fail(e));
    body.pipe(bb);
  });
}
