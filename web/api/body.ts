/** Reading request bodies with limits: JSON (422 on malformed, 413 when too large) and forms. */
import type { IncomingMessage } from "node:http";
import { PayloadTooLargeError, ValidationError } from "../../core/errors.js";
import { camelizeKeys } from "../../core/util/case.js";
import { readMultipart } from "./multipart.js";

export async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    throw new PayloadTooLargeError();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      req.resume();
      throw new PayloadTooLargeError();
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as UTF-8 text, refused (422) when it is not: decoding leniently would store U+FFFD in place
 * of whatever the client meant, with a 201.
 */
function utf8Text(raw: Buffer): string {
  try {
    return strictUtf8.decode(raw);
  } catch {
    throw new ValidationError([
      { loc: ["body", 0], msg: "JSON decode error: the body is not valid UTF-8", type: "json_invalid" },
    ]);
  }
}

/** Parse a JSON body; keys are camelised (Mealie accepts snake_case too). Empty body → undefined. */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readRaw(req, limit);
  const text = utf8Text(raw);
  if (text.trim() === "") return undefined;
  if (text.includes("\u0000")) {
    throw new ValidationError([
      { loc: ["body"], msg: "Body must not contain NUL characters", type: "value_error" },
    ]);
  }
  try {
    return camelizeKeys(JSON.parse(text));
  } catch (e) {
    throw new ValidationError([
      { loc: ["body", 0], msg: `JSON decode error: ${(e as Error).message}`, type: "json_invalid" },
    ]);
  }
}

export async function readForm(req: IncomingMessage, limit: number): Promise<Record<string, string>> {
  const ct = String(req.headers["content-type"] ?? "");
  // Mealie's own web UI signs in with a FormData body, which FastAPI's Form fields read like the
  // urlencoded one; a file in it has no place in a form of fields.
  if (ct.toLowerCase().startsWith("multipart/form-data")) {
    if (Number(req.headers["content-length"] ?? "0") > limit) {
      req.resume();
      throw new PayloadTooLargeError();
    }
    return (await readMultipart(req, { maxFileBytes: limit, maxFiles: 0 })).fields;
  }
  const raw = await readRaw(req, limit);
  if (ct.includes("application/json")) {
    const text = raw.toString("utf8").trim();
    if (!text) return {};
    try {
      const obj = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, String(v)]));
    } catch {
      throw new ValidationError([{ loc: ["body"], msg: "JSON decode error", type: "json_invalid" }]);
    }
  }
  return Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
}
