import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddress, clientAddressOf } from "./client-address.js";

const req = (peer: string, xff?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: xff === undefined ? {} : { "x-forwarded-for": xff },
  }) as unknown as IncomingMessage;

describe("the client address for throttling", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress(req("203.0.113.5", "198.51.100.1"), [])).toBe("203.0.113.5");
    expect(clientAddress(req("::ffff:203.0.113.5"), [])).toBe("203.0.113.5");
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddress(req("203.0.113.5", "198.51.100.1"), ["127.0.0.1"])).toBe("203.0.113.5");
  });

  it("reads X-Forwarded-For from the right behind trusted proxies (addresses and CIDR ranges), skipping trusted hops", () => {
    expect(clientAddress(req("127.0.0.1", "198.51.100.1"), ["127.0.0.1"])).toBe("198.51.100.1");
    // A client-supplied first entry is ignored: the right-most untrusted hop is the one the proxy saw.
    expect(clientAddress(req("10.0.0.2", "1.2.3.4, 198.51.100.1, 10.0.0.9"), ["10.0.0.0/8"])).toBe(
      "198.51.100.1",
    );
    expect(clientAddress(req("::1", "2001:db8::7"), ["::1"])).toBe("2001:db8::7");
  });

  it("falls back to the peer when the header is missing or not an address", () => {
    expect(clientAddress(req("127.0.0.1"), ["127.0.0.1"])).toBe("127.0.0.1");
    expect(clientAddress(req("127.0.0.1", "not-an-ip"), ["127.0.0.1"])).toBe("127.0.0.1");
  });

  it("is empty, not an error, when the client has hung up and its socket has no peer any more", () => {
    // React Router hands loaders `socket.remoteAddress`, undefined on a closed socket: a page asked
    // for by a client that left failed with a TypeError in the load context.
    expect(clientAddressOf(undefined, null, [])).toBe("");
    expect(clientAddressOf(undefined, "198.51.100.1", ["127.0.0.1"])).toBe("");
    expect(clientAddress({ socket: {}, headers: {} } as unknown as IncomingMessage, [])).toBe("");
  });
});
