/**
 * A multipart body that ends inside its file part (the request itself complete: its length or its
 * last chunk came) makes busboy destroy the part's stream with "Unexpected end of form". With no one
 * listening on that stream, the error escaped as an uncaught exception (the crash guard kept the
 * server up, but failed whichever request was current). It is the upload's own 422 now.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamMultipartToFile } from "./multipart-upload.js";

const BOUNDARY = "----larder-test-boundary";
const head = (field: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="migration_type"\r\n\r\nmealie_backup\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.zip"\r\n` +
  `Content-Type: application/zip\r\n\r\n`;

let dir: string;
let server: Server;
let port: number;
let handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;
const escaped: unknown[] = [];
const record = (e: unknown) => escaped.push(e);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "larder-upload-"));
  process.on("uncaughtException", record);
  server = createServer((req, res) => {
    handle(req, res).then(
      (v) => res.end(JSON.stringify({ ok: v })),
      (e: Error) => {
        res.statusCode = (e as { status?: number }).status ?? 500;
        res.end(JSON.stringify({ error: e.message, name: e.constructor.name }));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterEach(() => {
  expect(escaped.splice(0)).toEqual([]);
});
afterAll(async () => {
  process.off("uncaughtException", record);
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

/** Sends `body` whole (its length declared), then waits for the answer and a turn for stray errors. */
async function send(body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request({
      port,
      method: "POST",
      headers: {
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "content-length": Buffer.byteLength(body),
      },
    });
    req.on("response", resolve);
    req.on("error", reject);
    req.end(body);
  });
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  await new Promise((r) => setImmediate(r));
  return {
    status: res.statusCode ?? 0,
    json: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>,
  };
}

describe("streamMultipartToFile", () => {
  it("answers a body that ends inside the file part as a malformed body and leaves no file", async () => {
    handle = (req, res) =>
      streamMultipartToFile(req, { tmpDir: dir, field: "archive", maxBytes: 1_000_000, res });
    const { status, json } = await send(`${head("archive")}PK\u0003\u0004 some of the archive`);
    expect(status).toBe(422);
    expect(json.error).toMatch(/Malformed multipart body|Unexpected end/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("answers a body that ends inside a part it skips the same way", async () => {
    handle = (req, res) =>
      streamMultipartToFile(req, { tmpDir: dir, field: "archive", maxBytes: 1_000_000, res });
    const { status } = await send(`${head("other")}not the archive`);
    expect(status).toBe(422);
    expect(await readdir(dir)).toEqual([]);
  });

  it("still takes a whole upload", async () => {
    handle = async (req) => {
      const up = await streamMultipartToFile(req, { tmpDir: dir, field: "archive", maxBytes: 1_000_000 });
      await rm(up.file!.path);
      return { fields: up.fields, size: up.file!.size };
    };
    const { status, json } = await send(`${head("archive")}0123456789\r\n--${BOUNDARY}--\r\n`);
    expect(status).toBe(200);
    expect(json.ok).toEqual({ fields: { migration_type: "mealie_backup" }, size: 10 });
  });
});
