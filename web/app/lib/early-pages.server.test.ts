import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { EarlyIndex, earlyKey, type Ticket } from "./early-pages.server.js";

const request = (url: string, headers: Record<string, string> = {}) =>
  ({ url, headers, socket: {} }) as unknown as IncomingMessage;

describe("early keys", () => {
  it("differ by URL and by every header a page is rendered from, not by how it is sent", () => {
    const base = { host: "h", cookie: "a=1", "accept-language": "en", "user-agent": "ua" };
    const key = earlyKey(request("/g/home/r/soup", base));
    expect(earlyKey(request("/g/home/r/soup", base))).toBe(key);
    expect(earlyKey(request("/g/home/r/soup?edit=true", base))).not.toBe(key);
    for (const [name, value] of [
      ["host", "other"],
      ["cookie", "a=2"],
      ["accept-language", "de"],
      ["user-agent", "Googlebot"],
      ["x-forwarded-proto", "https"],
      ["x-forwarded-host", "proxy"],
    ])
      expect([name, earlyKey(request("/g/home/r/soup", { ...base, [name]: value }))]).not.toEqual([
        name,
        key,
      ]);
    const sent = { ...base, "accept-encoding": "gzip", "if-none-match": '"x"', accept: "*/*" };
    expect(earlyKey(request("/g/home/r/soup", sent))).toBe(key);
  });
});

describe("EarlyIndex", () => {
  const ticket = (count: number, key = "k", viewer = "u"): Ticket => ({ count, key, viewer });

  it("finds a page under the count it was indexed at, and drops everything when the count moves", () => {
    const index = new EarlyIndex();
    expect(index.lookup(1, "k")).toBeNull();
    index.remember(ticket(1), "page", 1);
    expect(index.lookup(1, "k")).toEqual({ renderKey: "page", viewer: "u" });
    expect(index.lookup(2, "k")).toBeNull();
    expect(index.size).toBe(0);
    expect(index.lookup(1, "k")).toBeNull();
  });

  it("does not index a page rendered across a change", () => {
    const index = new EarlyIndex();
    index.lookup(1, "k");
    index.remember(ticket(1), "page", 2);
    expect(index.lookup(1, "k")).toBeNull();
    // A ticket from before the index moved on is not indexed either.
    index.lookup(3, "k");
    index.remember(ticket(1), "page", 1);
    expect(index.lookup(3, "k")).toBeNull();
  });

  it("is bounded, oldest out first", () => {
    const index = new EarlyIndex(2);
    index.lookup(1, "a");
    for (const k of ["a", "b", "c"]) index.remember(ticket(1, k), `page-${k}`, 1);
    expect(index.size).toBe(2);
    expect(index.lookup(1, "a")).toBeNull();
    expect(index.lookup(1, "c")?.renderKey).toBe("page-c");
  });
});
