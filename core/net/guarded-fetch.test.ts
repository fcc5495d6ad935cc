import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { LarderError } from "../errors.js";
import {
  BadContentTypeError,
  BlockedTargetError,
  FetchFailedError,
  FetchTimeoutError,
  HttpStatusError,
  InvalidUrlError,
  TooManyRedirectsError,
} from "./errors.js";
import { createGuardedFetcher, guardedFetch, type Resolver } from "./guarded-fetch.js";
import { fakeResolver, startTestServers, TEST_CERT, type TestServers } from "./test-support.js";

let s: TestServers;
beforeAll(async () => {
  s = await startTestServers();
});
afterAll(async () => {
  await s.close();
});
beforeEach(() => {
  s.requests.length = 0;
});

/** Nothing in these tests may reach real DNS; a call to this resolver is itself a failure. */
const noDns: Resolver = async (h) => {
  throw new Error(`unexpected DNS lookup for ${h}`);
};
/** Loopback reachable, as a household would allow its own Home Assistant. */
const loopbackFetch = (extra: Record<string, string[]> = {}): ReturnType<typeof createGuardedFetcher> =>
  createGuardedFetcher({
    fetchAllow: ["127.0.0.1"],
    fetchUserAgent: "LarderTest/1.0",
    resolver: fakeResolver(extra),
  });

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the fetch to be refused");
}

describe("blocked targets (no allow list)", () => {
  const fetch = createGuardedFetcher({ resolver: noDns });
  // Port P is a live server on loopback: were a guard missing, the fetch would succeed, not fail differently.
  const live = (): string[] => [
    `http://127.0.0.1:${s.v4Port}/ok`,
    `http://2130706433:${s.v4Port}/ok`,
    `http://0x7f000001:${s.v4Port}/ok`,
    `http://0177.0.0.1:${s.v4Port}/ok`,
    `http://127.1:${s.v4Port}/ok`,
    `http://0.0.0.0:${s.v4Port}/ok`,
    `http://[::ffff:127.0.0.1]:${s.v4Port}/ok`,
    `http://[::ffff:7f00:1]:${s.v4Port}/ok`,
    `http://[::1]:${s.v6Port}/ok`,
    `http://[::]:${s.v6Port}/ok`,
  ];
  it("refuses loopback in every literal spelling", async () => {
    for (const url of live()) {
      const err = await rejection(fetch(url, { connectTimeoutMs: 200 }));
      expect(err, url).toBeInstanceOf(BlockedTargetError);
    }
    expect(s.requests).toHaveLength(0);
  });

  it.each([
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://0xa9fea9fe/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://240.0.0.1/",
    "http://192.0.2.1/",
    "http://198.51.100.1/",
    "http://203.0.113.1/",
    "http://198.18.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd00::1]/",
    "http://[ff02::1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:c0a8:101::1]/",
    "http://[2001:db8::1]/",
    "https://[::ffff:192.168.0.1]/",
  ])("refuses %s as a blocked target with status 400", async (url) => {
    const err = await rejection(fetch(url, { connectTimeoutMs: 200 }));
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect(err).toBeInstanceOf(LarderError);
    expect((err as BlockedTargetError).status).toBe(400);
    expect(err.message).toBe("Url is not from an allowed domain");
  });

  it("refuses host names that resolve to private addresses, checking every address", async () => {
    const calls: string[] = [];
    const f = createGuardedFetcher({
      fetchAllow: ["127.0.0.1"],
      resolver: fakeResolver(
        {
          "evil.test": ["10.0.0.5"],
          "metadata.test": ["169.254.169.254"],
          "ula.test": ["fd00::1"],
          "mapped.test": ["::ffff:192.168.0.1"],
          // one good address does not launder a bad one
          "mixed.test": ["127.0.0.1", "10.0.0.1"],
        },
        calls,
      ),
    });
    for (const host of ["evil.test", "metadata.test", "ula.test", "mapped.test", "mixed.test"]) {
      const err = await rejection(f(`http://${host}:${s.v4Port}/ok`));
      expect(err, host).toBeInstanceOf(BlockedTargetError);
      expect((err as BlockedTargetError).reason).toContain(host);
    }
    expect(calls).toHaveLength(5);
    expect(s.requests).toHaveLength(0);
  });

  it("refuses localhost through the system resolver", async () => {
    const err = await rejection(guardedFetch(`http://localhost:${s.v4Port}/ok`));
    expect(err).toBeInstanceOf(BlockedTargetError);
  });

  it("rejects non-http schemes and garbage as invalid URLs", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/",
      "gopher://127.0.0.1:70/",
      "javascript:alert(1)",
      "not a url",
      "http://",
    ]) {
      const err = await rejection(fetch(url));
      expect(err, url).toBeInstanceOf(InvalidUrlError);
      expect((err as InvalidUrlError).status).toBe(400);
    }
  });
});

describe("allow list", () => {
  it("lets loopback through only when listed, by address, range or name", async () => {
    expect((await loopbackFetch()(`${s.v4}/ok`)).body.toString()).toBe("hello");
    // 127.0.0.1 listed does not open ::1
    expect(await rejection(loopbackFetch()(`${s.v6}/ok`))).toBeInstanceOf(BlockedTargetError);
    expect((await createGuardedFetcher({ fetchAllow: ["::1"] })(`${s.v6}/ok`)).status).toBe(200);
    expect(
      (await createGuardedFetcher({ fetchAllow: ["127.0.0.0/8"] })(`http://2130706433:${s.v4Port}/ok`))
        .status,
    ).toBe(200);
    const byName = createGuardedFetcher({
      fetchAllow: ["homeassistant.lan"],
      resolver: fakeResolver({ "homeassistant.lan": ["127.0.0.1"] }),
    });
    expect((await byName(`http://homeassistant.lan:${s.v4Port}/ok`)).status).toBe(200);
    expect((await guardedFetch(`${s.v4}/ok`, { allow: ["127.0.0.1"] })).status).toBe(200);
  });

  it("fails at creation on a malformed entry", () => {
    expect(() => createGuardedFetcher({ fetchAllow: ["10.0.0.0/40"] })).toThrow(/LARDER_FETCH_ALLOW/);
  });
});

describe("DNS pinning", () => {
  it("connects to the address it vetted, keeping the original Host, and never looks the name up twice", async () => {
    let lookups = 0;
    // A rebinding server: harmless answer first, metadata service afterwards.
    const rebinding: Resolver = async () => [{ address: lookups++ === 0 ? "127.0.0.1" : "169.254.169.254" }];
    const f = createGuardedFetcher({ fetchAllow: ["127.0.0.1"], resolver: rebinding });
    const res = await f(`http://rebind.test:${s.v4Port}/echo`);
    expect(res.status).toBe(200);
    expect(res.address).toBe("127.0.0.1");
    expect(s.requests[0].headers.host).toBe(`rebind.test:${s.v4Port}`);
    expect(lookups).toBe(1);
    // The next fetch resolves afresh and sees the rebound answer.
    expect(await rejection(f(`http://rebind.test:${s.v4Port}/echo`))).toBeInstanceOf(BlockedTargetError);
  });

  it("keeps SNI and certificate checks on the original host name over TLS", async () => {
    const f = loopbackFetch({ "larder.test": ["127.0.0.1"] });
    const res = await f(`https://larder.test:${s.tlsPort}/ok`, { ca: TEST_CERT });
    expect(res.body.toString()).toBe("hello");
    expect(s.requests[0].servername).toBe("larder.test");
    expect(s.requests[0].headers.host).toBe(`larder.test:${s.tlsPort}`);
    // Without trusting the test CA the self-signed certificate is refused, not ignored.
    expect(await rejection(f(`https://larder.test:${s.tlsPort}/ok`))).toBeInstanceOf(FetchFailedError);
  });
});

describe("redirects", () => {
  const to = (target: string, status = 302): string =>
    `${s.v4}/redirect?status=${status}&to=${encodeURIComponent(target)}`;

  it("re-checks every hop: an allowed target cannot bounce us to a blocked one", async () => {
    const f = loopbackFetch({ "internal.test": ["10.1.2.3"] });
    for (const target of [
      "http://169.254.169.254/latest/meta-data/",
      `http://[::1]:${s.v6Port}/ok`,
      "http://internal.test/",
      `http://0x0a000001/`,
    ]) {
      const err = await rejection(f(to(target)));
      expect(err, target).toBeInstanceOf(BlockedTargetError);
    }
    expect(await rejection(f(to("file:///etc/passwd")))).toBeInstanceOf(InvalidUrlError);
  });

  it("follows allowed hops and reports the final URL", async () => {
    const res = await loopbackFetch()(to("/redirect?status=301&to=/ok", 308));
    expect(res.body.toString()).toBe("hello");
    expect(res.url).toBe(`${s.v4}/ok`);
    expect(res.redirects).toHaveLength(2);
  });

  it("stops a redirect loop at the hop limit", async () => {
    const err = await rejection(loopbackFetch()(`${s.v4}/loop`));
    expect(err).toBeInstanceOf(TooManyRedirectsError);
    expect((err as TooManyRedirectsError).status).toBe(502);
    expect(s.requests).toHaveLength(6); // the first request plus 5 followed redirects
    s.requests.length = 0;
    await rejection(loopbackFetch()(`${s.v4}/loop`, { maxRedirects: 2 }));
    expect(s.requests).toHaveLength(3);
  });

  it("applies browsers' method rules", async () => {
    const post = {
      method: "POST",
      body: "x=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
    const f = loopbackFetch();
    for (const [status, method, body] of [
      [301, "GET", ""],
      [302, "GET", ""],
      [303, "GET", ""],
      [307, "POST", "x=1"],
      [308, "POST", "x=1"],
    ] as const) {
      const echo = JSON.parse((await f(to("/echo", status), post)).body.toString());
      expect([status, echo.method, echo.body], String(status)).toEqual([status, method, body]);
      expect(echo.headers["content-type"] !== undefined, String(status)).toBe(method === "POST");
    }
    const put = JSON.parse((await f(to("/echo", 303), { method: "PUT", body: "y" })).body.toString());
    expect(put.method).toBe("GET");
  });

  it("drops credentials when a redirect changes origin", async () => {
    const f = createGuardedFetcher({
      fetchAllow: ["127.0.0.1", "other.test"],
      resolver: fakeResolver({ "other.test": ["127.0.0.1"] }),
    });
    const headers = { authorization: "Bearer secret", cookie: "session=1" };
    const same = JSON.parse((await f(to("/echo"), { headers })).body.toString());
    expect(same.headers.authorization).toBe("Bearer secret");
    const cross = JSON.parse(
      (await f(to(`http://other.test:${s.v4Port}/echo`), { headers })).body.toString(),
    );
    expect(cross.headers.authorization).toBeUndefined();
    expect(cross.headers.cookie).toBeUndefined();
  });

  it("returns the 3xx itself with redirect: manual", async () => {
    const res = await loopbackFetch()(to("http://169.254.169.254/"), { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://169.254.169.254/");
  });
});

describe("timeouts and cancellation", () => {
  it("times out a server that never answers", async () => {
    const started = Date.now();
    const err = await rejection(loopbackFetch()(`${s.v4}/never`, { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect((err as FetchTimeoutError).phase).toBe("total");
    expect((err as FetchTimeoutError).status).toBe(408);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("applies the connect timeout to a TLS handshake that never completes", async () => {
    const f = loopbackFetch({ "larder.test": ["127.0.0.1"] });
    const err = await rejection(
      f(`https://larder.test:${s.silentPort}/`, { connectTimeoutMs: 200, timeoutMs: 5000 }),
    );
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect((err as FetchTimeoutError).phase).toBe("connect");
  });

  it("times out a body that stalls, also when streaming", async () => {
    const err = await rejection(loopbackFetch()(`${s.v4}/stall`, { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(FetchTimeoutError);
    const res = await loopbackFetch()(`${s.v4}/stall`, { timeoutMs: 300, stream: true });
    const streamErr = await rejection(
      (async () => {
        for await (const _ of res.body) {
          /* drain */
        }
      })(),
    );
    expect(streamErr).toBeInstanceOf(FetchTimeoutError);
  });

  it("honours the caller's AbortSignal with the caller's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user navigated away");
    const seen = s.requests.length;
    const pending = rejection(loopbackFetch()(`${s.v4}/never`, { signal: controller.signal }));
    // Abort once the server holds the request: the fetch is in flight, not yet connecting.
    await vi.waitFor(() => expect(s.requests.slice(seen).some((r) => r.path === "/never")).toBe(true));
    controller.abort(reason);
    expect(await pending).toBe(reason);
    expect(await rejection(loopbackFetch()(`${s.v4}/ok`, { signal: AbortSignal.abort(reason) }))).toBe(
      reason,
    );
  });

  it("maps a refused connection to FetchFailedError", async () => {
    const closed = createGuardedFetcher({ fetchAllow: ["127.0.0.1"] });
    const err = await rejection(closed("http://127.0.0.1:1/"));
    expect(err).toBeInstanceOf(FetchFailedError);
    expect((err as FetchFailedError).errno).toBe("ECONNREFUSED");
  });
});

describe("response checks and request headers", () => {
  it("enforces a required content type", async () => {
    const f = loopbackFetch();
    expect((await f(`${s.v4}/png`, { contentType: "image/*" })).body).toHaveLength(4);
    expect(s.requests[0].headers.accept).toBe("image/*");
    expect((await f(`${s.v4}/html`, { contentType: ["text/html", "application/xhtml+xml"] })).status).toBe(
      200,
    );
    for (const path of ["/html", "/noct"]) {
      const err = await rejection(f(`${s.v4}${path}`, { contentType: "image/*" }));
      expect(err, path).toBeInstanceOf(BadContentTypeError);
      expect((err as BadContentTypeError).status).toBe(415);
    }
  });

  it("turns non-2xx into HttpStatusError unless asked not to", async () => {
    const err = await rejection(loopbackFetch()(`${s.v4}/status/404`));
    expect(err).toBeInstanceOf(HttpStatusError);
    expect([(err as HttpStatusError).status, (err as HttpStatusError).upstreamStatus]).toEqual([502, 404]);
    expect((await loopbackFetch()(`${s.v4}/status/404`, { throwHttpErrors: false })).status).toBe(404);
  });

  it("sends the configured User-Agent on every hop, overridable per call", async () => {
    await loopbackFetch()(`${s.v4}/redirect?to=/echo`);
    expect(s.requests.map((r) => r.headers["user-agent"])).toEqual(["LarderTest/1.0", "LarderTest/1.0"]);
    const echo = JSON.parse(
      (await loopbackFetch()(`${s.v4}/echo`, { userAgent: "Mozilla/5.0 Larder" })).body.toString(),
    );
    expect(echo.headers["user-agent"]).toBe("Mozilla/5.0 Larder");
    await guardedFetch(`${s.v4}/ok`, { allow: ["127.0.0.1"] });
    expect(s.requests.at(-1)?.headers["user-agent"]).toMatch(/^Larder\//);
  });

  it("sends URL credentials as Basic auth and keeps them out of the reported URL", async () => {
    const res = await loopbackFetch()(`http://cook:p%40ss@127.0.0.1:${s.v4Port}/echo`);
    expect(JSON.parse(res.body.toString()).headers.authorization).toBe(
      `Basic ${Buffer.from("cook:p@ss").toString("base64")}`,
    );
    expect(res.url).toBe(`${s.v4}/echo`);
  });

  it("keeps callers from overriding framing headers", async () => {
    const echo = JSON.parse(
      (
        await loopbackFetch()(`${s.v4}/echo`, {
          method: "POST",
          body: "abc",
          headers: { Host: "evil.test", "Content-Length": "999", "X-Hook": "1" },
        })
      ).body.toString(),
    );
    expect([echo.headers.host, echo.headers["content-length"], echo.headers["x-hook"], echo.body]).toEqual([
      `127.0.0.1:${s.v4Port}`,
      "3",
      "1",
      "abc",
    ]);
  });
});
