/**
 * Size caps and decoding against local servers. Memory is measured as the peak growth of rss and
 * arrayBuffers while each fetch runs, garbage included (servers live in the same process, so
 * their buffers count too); figures are printed so regressions show even within the bounds.
 */
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FetchFailedError, ResponseTooLargeError } from "./errors.js";
import { createGuardedFetcher } from "./guarded-fetch.js";
import { contentTypeMatches, parseContentEncoding } from "./body.js";
import { countingSink, measurePeak, MiB, startTestServers, type TestServers } from "./test-support.js";

let s: TestServers;
beforeAll(async () => {
  s = await startTestServers({ bombs: true });
});
afterAll(async () => {
  await s.close();
});

const fetch = createGuardedFetcher({ fetchAllow: ["127.0.0.1"] });
const report = (label: string, m: { rss: number; arrayBuffers: number }): void => {
  console.log(
    `[memory] ${label}: rss +${(m.rss / MiB).toFixed(1)} MiB, arrayBuffers +${(m.arrayBuffers / MiB).toFixed(1)} MiB`,
  );
};
const mb100 = 100 * MiB;

function expectTooLarge(outcome: PromiseSettledResult<unknown>, phase: ResponseTooLargeError["phase"]): void {
  expect(outcome.status).toBe("rejected");
  const reason = (outcome as PromiseRejectedResult).reason as ResponseTooLargeError;
  expect(reason).toBeInstanceOf(ResponseTooLargeError);
  expect(reason.phase).toBe(phase);
  expect(reason.status).toBe(413);
}

describe("size caps", () => {
  it("refuses a declared 100 MB body before reading it", async () => {
    const err = await fetch(`${s.v4}/huge?mb=100&declared`, { maxBytes: MiB }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).phase).toBe("declared");
  });

  it("does not apply the declared size to a HEAD response, which has no body", async () => {
    const res = await fetch(`${s.v4}/huge?mb=100&declared`, { method: "HEAD", maxBytes: MiB });
    expect([res.status, res.body.length, res.headers.get("content-length")]).toEqual([200, 0, String(mb100)]);
  });

  it("cuts off an undeclared 100 MB body at the cap, memory flat", async () => {
    const m = await measurePeak(() => fetch(`${s.v4}/huge?mb=100`, { maxBytes: 2 * MiB }));
    report("100 MB chunked, 2 MiB cap", m);
    expectTooLarge(m.outcome, "wire");
    // The server learns of the hang-up when its response closes; hugeSent is set then.
    await vi.waitFor(() => expect(s.hugeSent()).toBeGreaterThanOrEqual(0));
    expect(s.hugeSent()).toBeLessThan(mb100 / 5);
    expect(m.arrayBuffers).toBeLessThan(mb100 / 10);
    expect(m.rss).toBeLessThan(mb100 / 4);
  });

  it("streams a 256 MiB download to a sink without buffering it", async () => {
    // Flat memory shown by backpressure rather than by heap figures (which depend on when V8 collects
    // socket buffers): a sink that takes its time makes the server wait, and whenever it waits, what
    // it has sent and the sink has not yet received (sockets and stream buffers) stays small.
    const size = 256 * MiB;
    let received = 0;
    const slowSink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        setImmediate(cb);
      },
    });
    let waits = 0;
    let inFlight = 0;
    s.onHugeBlocked((sent) => {
      waits++;
      inFlight = Math.max(inFlight, sent - received);
    });
    try {
      const res = await fetch(`${s.v4}/huge?mb=256`, { stream: true, maxBytes: 300 * MiB });
      await pipeline(res.body, slowSink);
    } finally {
      s.onHugeBlocked(null);
    }
    console.log(
      `[memory] 256 MiB streamed: the server waited ${waits} times, at most ${(inFlight / MiB).toFixed(1)} MiB in flight`,
    );
    expect(received).toBe(size);
    expect(waits).toBeGreaterThan(10);
    expect(inFlight).toBeLessThan(16 * MiB);
  });

  it("errors a streamed download at the cap", async () => {
    const sink = countingSink();
    const res = await fetch(`${s.v4}/huge?mb=100`, { stream: true, maxBytes: 3 * MiB });
    const err = await pipeline(res.body, sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(sink.bytes).toBeLessThanOrEqual(3 * MiB);
  });
});

describe("decompression bombs", () => {
  it.each(["gzip", "br"])("cuts a 256 MiB %s bomb off at the decoded cap, memory flat", async (enc) => {
    const m = await measurePeak(() => fetch(`${s.v4}/bomb?enc=${enc}`, { maxBytes: 4 * MiB }));
    report(`256 MiB ${enc} bomb, 4 MiB cap`, m);
    expectTooLarge(m.outcome, "decoded");
    expect(m.arrayBuffers).toBeLessThan(24 * MiB);
    expect(m.rss).toBeLessThan(48 * MiB);
  });

  it("cuts a streamed bomb off too", async () => {
    const sink = countingSink();
    const res = await fetch(`${s.v4}/bomb?enc=gzip`, { stream: true, maxBytes: 4 * MiB });
    const err = await pipeline(res.body, sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(sink.bytes).toBeLessThanOrEqual(4 * MiB);
  });
});

describe("decoding", () => {
  const plain = "soup ".repeat(2000);
  it.each(["gzip", "deflate", "deflate-raw", "br", "identity"])("decodes %s", async (enc) => {
    const res = await fetch(`${s.v4}/encoded?enc=${enc}`);
    expect(res.body.toString()).toBe(plain);
  });

  it("sends Accept-Encoding for what it can decode and refuses what it cannot", async () => {
    const err = await fetch(`${s.v4}/encoded?enc=compress`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchFailedError);
    expect(s.requests.at(-1)?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("parses encodings and content types", () => {
    expect(parseContentEncoding("gzip, identity, BR")).toEqual(["gzip", "br"]);
    expect(contentTypeMatches("Image/PNG", ["image/*"])).toBe(true);
    expect(contentTypeMatches("text/html; charset=utf-8", ["text/html"])).toBe(true);
    expect(contentTypeMatches("text/htmlx", ["text/html"])).toBe(false);
    expect(contentTypeMatches("imagery/png", ["image/*"])).toBe(false);
    expect(contentTypeMatches(undefined, ["*/*"])).toBe(false);
  });
});
