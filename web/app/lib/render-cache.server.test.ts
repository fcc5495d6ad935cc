import { describe, expect, it } from "vitest";
import { RenderCache, renderKey } from "./render-cache.server.js";

describe("the render cache's key", () => {
  it("differs whenever any input differs, including what JSON would blur", () => {
    const base = { url: "/g/home/r/soup", loaderData: { root: { session: { id: "a" } }, n: 1 } };
    const keys = [
      base,
      { ...base, url: "/g/home/r/stew" },
      { ...base, loaderData: { root: { session: { id: "b" } }, n: 1 } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: Number.NaN } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: null } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: -0 } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: 0 } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: undefined } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: new Date(0) } },
      { ...base, loaderData: { root: { session: { id: "a" } }, n: new Date(0).toISOString() } },
    ].map(renderKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(renderKey(structuredClone(base))).toBe(keys[0]);
  });

  it("refuses inputs it cannot describe exactly (a Map, a class instance, a promise, a function)", () => {
    for (const odd of [new Map([["a", 1]]), new Set([1]), new URL("http://x/"), Promise.resolve(1), () => 1])
      expect(renderKey({ loaderData: { x: odd } })).toBeNull();
  });
});

describe("the render cache", () => {
  it("serves a page with the new nonce wherever the old one was, and none of the old", () => {
    const cache = new RenderCache();
    const old = "OLDnonce+/=";
    cache.set("k", Buffer.from(`<script nonce="${old}">a</script><style nonce="${old}"></style>`), old);
    const page = cache.get("k", "NEW")!.toString();
    expect(page).toBe(`<script nonce="NEW">a</script><style nonce="NEW"></style>`);
    expect(page).not.toContain(old);
    expect(cache.get("other", "NEW")).toBeNull();
  });

  it("drops the least recently used pages past its size bound", () => {
    const cache = new RenderCache(8 * 100);
    const page = Buffer.alloc(100, "x");
    for (const k of ["a", "b", "c", "d", "e", "f", "g", "h"]) cache.set(k, page, "n");
    expect(cache.get("a", "n")).not.toBeNull(); // "a" is now the most recent
    cache.set("i", page, "n");
    expect(cache.get("b", "n")).toBeNull();
    expect(cache.get("a", "n")).not.toBeNull();
    expect(cache.size).toBe(8);
  });
});
