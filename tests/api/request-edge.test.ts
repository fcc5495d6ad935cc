/**
 * The request edge under hostile bodies (issue 11 §1). A multipart body cut off inside a file part
 * used to make busboy emit an 'error' nobody listened to, and the process exited: one signed-in user
 * could stop the server. This replays that request, then fuzzes every write route with truncated,
 * malformed and abandoned multipart and JSON bodies (fast-check, bounded in runs and time) and
 * asserts that nothing escapes (vitest fails a run on any uncaught exception), that no complete
 * request gets a 5xx, and that the server still answers afterwards.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildRouter } from "../../web/api/routes/index.js";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
let port: number;
let userId: string;
let slug: string;
let recipeId: string;
let eventId: string;

/** Exceptions nothing caught while the tests ran (vitest reports them too; this names them per test). */
const escaped: unknown[] = [];
const record = (e: unknown) => escaped.push(e);

beforeAll(async () => {
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  t = await startTestServer({ maxUploadBytes: 200_000 });
  port = t.server.port;
  token = await t.login();
  userId = ((await (await t.api("/api/users/self", { token })).json()) as { id: string }).id;
  slug = (await (
    await t.api("/api/recipes", { method: "POST", token, json: { name: "Edge Soup" } })
  ).json()) as string;
  recipeId = ((await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string }).id;
  const ev = await t.api("/api/recipes/timeline/events", {
    method: "POST",
    token,
    json: { recipeId, subject: "made it", eventType: "info" },
  });
  eventId = ((await ev.json()) as { id: string }).id;
});
afterAll(async () => {
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
  await t?.close();
});

const UPLOADS = () => [
  { method: "POST", path: `/api/users/${userId}/image`, field: "profile" },
  { method: "PUT", path: `/api/recipes/${slug}/image`, field: "image" },
  { method: "POST", path: `/api/recipes/${slug}/assets`, field: "file" },
  { method: "PUT", path: `/api/recipes/timeline/events/${eventId}/image`, field: "image" },
];

/** Every POST/PUT/PATCH route of the API, its parameters filled with this test's real ids. */
function writeRoutes(): Array<{ method: string; path: string }> {
  const fill = (p: string) =>
    p
      .replace(/:slug/g, slug)
      .replace(/\/api\/users\/:id/, `/api/users/${userId}`)
      .replace(/\/timeline\/events\/:id/, `/timeline/events/${eventId}`)
      .replace(/:id/g, recipeId)
      .replace(/:[a-zA-Z]+/g, "x");
  return (
    buildRouter()
      .list()
      .filter((r) => r.method !== "GET" && r.method !== "DELETE")
      // Signing up, resetting the password and logging out change who the test is; the edge is the same.
      .filter(
        (r) =>
          !/\/auth\/(logout|refresh)|\/users\/password|\/admin\/backups\/.*\/restore|\/admin\/maintenance\/clean/.test(
            r.path,
          ),
      )
      .map((r) => ({ method: r.method, path: fill(r.path) }))
  );
}

interface Sent {
  head: string;
  body: Buffer;
  /** How the client ends: `complete` waits for the answer; `abandon` closes after sending. */
  end: "complete" | "abandon";
}

/** Send raw bytes; resolve with the status line's code (0 when the server closed without one). */
function raw({ head, body, end }: Sent): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    sock.on("data", (c: Buffer) => chunks.push(c));
    sock.on("error", (e: NodeJS.ErrnoException) => {
      // The server may cut a body it has refused (413) before reading it all.
      if (e.code === "ECONNRESET" || e.code === "EPIPE") resolve(statusOf(chunks));
      else reject(e);
    });
    sock.on("close", () => resolve(statusOf(chunks)));
    sock.write(head);
    sock.write(body);
    // A complete request keeps its side open (a half-close reads as a client gone away); the server
    // closes after answering (Connection: close).
    if (end === "abandon") sock.destroy();
  });
}

function statusOf(chunks: Buffer[]): number {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(chunks).toString("latin1"));
  return m ? Number(m[1]) : 0;
}

function request(
  method: string,
  path: string,
  contentType: string,
  body: Buffer,
  opts: { declared?: number; end?: Sent["end"] } = {},
): Sent {
  const head =
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n` +
    `Content-Type: ${contentType}\r\nContent-Length: ${opts.declared ?? body.length}\r\n\r\n`;
  return { head, body, end: opts.end ?? "complete" };
}

async function stillAnswers(): Promise<void> {
  const res = await t.api("/api/app/about");
  expect(res.status).toBe(200);
  expect(escaped).toEqual([]);
}

describe("the request edge", () => {
  it("survives a multipart body cut off inside a file part, on every upload route (the reported crash)", async () => {
    const body = Buffer.from(
      '--x\r\nContent-Disposition: form-data; name="profile"; filename="a"\r\n\r\nabc',
    );
    for (const u of UPLOADS()) {
      const cut = Buffer.from(body.toString().replace('name="profile"', `name="${u.field}"`));
      // Declared length matches: the body is complete, the multipart inside it is not.
      expect(await raw(request(u.method, u.path, "multipart/form-data; boundary=x", cut))).toBe(422);
      // Declared longer than sent, then the client hangs up: the abandoned upload.
      await raw(
        request(u.method, u.path, "multipart/form-data; boundary=x", cut, {
          declared: cut.length + 1000,
          end: "abandon",
        }),
      );
      await stillAnswers();
    }
  });

  it("answers every write route without a 5xx, and keeps answering, whatever the body", async () => {
    const routes = writeRoutes();
    const uploads = UPLOADS();
    expect(routes.length).toBeGreaterThan(50);
    const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,20}$/);
    const multipart = fc
      .record({
        boundary,
        field: fc.constantFrom("profile", "image", "file", "extension", "name", ""),
        filename: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        content: fc.uint8Array({ maxLength: 300 }),
        closeIt: fc.boolean(),
        cutAt: fc.option(fc.nat(), { nil: undefined }),
        garbage: fc.option(fc.uint8Array({ maxLength: 40 }), { nil: undefined }),
      })
      .map(({ boundary: b, field, filename, content, closeIt, cutAt, garbage }) => {
        const disp = `form-data; name="${field}"${filename === undefined ? "" : `; filename="${filename.replace(/["\r\n]/g, "")}"`}`;
        let body = Buffer.concat([
          Buffer.from(`--${b}\r\nContent-Disposition: ${disp}\r\nContent-Type: image/png\r\n\r\n`),
          Buffer.from(content),
          Buffer.from(closeIt ? `\r\n--${b}--\r\n` : ""),
          Buffer.from(garbage ?? []),
        ]);
        if (cutAt !== undefined) body = body.subarray(0, cutAt % (body.length + 1));
        return { contentType: `multipart/form-data; boundary=${b}`, body };
      });
    const json = fc
      .oneof(
        fc.json().map((s) => s.slice(0, Math.max(0, s.length - 1))),
        fc.json(),
        fc.constantFrom(
          "null",
          "",
          "[]",
          "{}",
          '{"name":null}',
          '{"name":',
          "\u0000",
          "[".repeat(5000),
          '{"a":'.repeat(3000),
          '"\\ud800"',
          "1e999",
        ),
        fc.object().map((o) => JSON.stringify(o)),
      )
      .map((s) => ({ contentType: "application/json", body: Buffer.from(s) }));
    const form = fc
      .string({ maxLength: 200 })
      .map((s) => ({ contentType: "application/x-www-form-urlencoded", body: Buffer.from(s) }));
    const target = fc.oneof(
      { arbitrary: fc.constantFrom(...uploads), weight: 1 },
      { arbitrary: fc.constantFrom(...routes), weight: 3 },
    );
    const ending = fc.constantFrom<Sent["end"]>("complete", "complete", "abandon");
    const overDeclare = fc.constantFrom(0, 0, 0, 17, 4096);

    const fivexx: string[] = [];
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        target,
        fc.oneof(multipart, json, form),
        ending,
        overDeclare,
        async (r, b, end, extra) => {
          // An over-declared body that the client then completes would just wait for the timeout.
          const how = extra > 0 ? "abandon" : end;
          const status = await raw(
            request(r.method, r.path, b.contentType, b.body, { declared: b.body.length + extra, end: how }),
          );
          if (how === "complete") answered++;
          if (how === "complete" && (status >= 500 || status === 0))
            fivexx.push(
              `${r.method} ${r.path} ${b.contentType} → ${status}: ${b.body.subarray(0, 80).toString("latin1")}`,
            );
        },
      ),
      {
        numRuns: Number(process.env.LARDER_FUZZ_RUNS ?? 400),
        interruptAfterTimeLimit: 60_000,
        seed: process.env.LARDER_FUZZ_SEED ? Number(process.env.LARDER_FUZZ_SEED) : undefined,
      },
    );
    expect(fivexx).toEqual([]);
    expect(answered).toBeGreaterThan(50);
    await stillAnswers();
  }, 120_000);
});

/** Sends `text` as it is and resolves with everything the server answered before it closed. */
function exchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    sock.on("data", (c: Buffer) => chunks.push(c));
    sock.on("error", (e: NodeJS.ErrnoException) =>
      e.code === "ECONNRESET" || e.code === "EPIPE" ? resolve(Buffer.concat(chunks).toString()) : reject(e),
    );
    sock.on("close", () => resolve(Buffer.concat(chunks).toString()));
    sock.write(text);
  });
}

describe("a request node's parser refuses", () => {
  it("answers a URL past 16 KB (a query filter of 10,000 clauses) with 431 in Mealie's shape, and keeps serving", async () => {
    // Found by tests/security: node answered a bare "431" with no body, which clients show as nothing.
    const clauses = Array.from({ length: 10_000 }, (_, i) => `name = "n${i}"`).join(" OR ");
    const answer = await exchange(
      `GET /api/recipes?queryFilter=${encodeURIComponent(clauses)} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bearer ${token}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain("Content-Type: application/json");
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { detail: string };
    expect(body.detail).toMatch(/too long \(at most 16 KB\)/);
    await stillAnswers();
  });

  it("answers a malformed header line with 400 in Mealie's shape", async () => {
    const answer = await exchange("GET /api/app/about HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({
      detail: "Malformed HTTP request",
    });
    await stillAnswers();
  });
});
