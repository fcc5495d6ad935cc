import { createHash, randomBytes } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  RenderCache,
  StoredPage,
  preferredEncoding,
  renderKey,
  scriptHash,
  sealPage,
} from "./render-cache.server.js";

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

describe("sealing a page rendered with a nonce", () => {
  const N = "s3cret+/nonce==";

  it("names exactly the scripts that carried the nonce by hash, and leaves no nonce in the page", () => {
    const page =
      `<head><script nonce="${N}" data-x="1">var a = 1;</script><link rel="modulepreload" href="/a.js" nonce="${N}"/>` +
      `<style nonce="${N}">b{}</style></head><body><script>alert("injected")</script>` +
      `<script nonce="${N}" type="module" async="">import("/b.js");</script></body>`;
    const sealed = sealPage(page, N)!;
    const html = sealed.html.toString();
    expect(html).not.toContain(N);
    expect(html).not.toContain("nonce=");
    expect(html).toBe(page.split(` nonce="${N}"`).join(""));
    expect(sealed.scriptHashes.sort()).toEqual(
      [scriptHash("var a = 1;"), scriptHash('import("/b.js");')].sort(),
    );
    // The injected script, which could not know the nonce, is not let through.
    expect(sealed.scriptHashes).not.toContain(scriptHash('alert("injected")'));
  });

  it("hashes a script's text as the browser does: up to the first </script, UTF-8", () => {
    const text = 'var s = "crème brûlée ✓";';
    const sealed = sealPage(`<script nonce="${N}">${text}</SCRIPT>`, N)!;
    expect(sealed.scriptHashes).toEqual([
      `sha256-${createHash("sha256").update(Buffer.from(text, "utf8")).digest("base64")}`,
    ]);
  });

  it("seals the bytes of a page with text in any script around its nonces", () => {
    const page = `<p>Crème brûlée — ✓ 🍮</p><script nonce="${N}">var é = "ü";</script><p>😀</p><script nonce="${N}">1</script>`;
    const sealed = sealPage(Buffer.from(page), N)!;
    expect(sealed.html.toString()).toBe(page.split(` nonce="${N}"`).join(""));
    expect(sealed.scriptHashes).toEqual([scriptHash('var é = "ü";'), scriptHash("1")]);
  });

  it("refuses a page where the nonce stands anywhere but in a nonce attribute", () => {
    expect(sealPage(`<script nonce="${N}">var n = "${N}";</script>`, N)).toBeNull();
    expect(sealPage(`<p>${N}</p>`, N)).toBeNull();
  });

  it("says whether a nonce-free page has no inline scripts to allow", () => {
    expect(sealPage("<p>plain</p>", N)).toEqual({ html: Buffer.from("<p>plain</p>"), scriptHashes: [] });
  });
});

describe("the encoding a stored page is sent in", () => {
  it("prefers brotli, then gzip, honouring q=0 and *", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("*;q=0, identity")).toBe("identity");
    expect(preferredEncoding(null)).toBe("identity");
  });
});

const stored = (key: string, html: string) => new StoredPage(key, Buffer.from(html), "script-src 'self'");

describe("the render cache", () => {
  it("serves the stored bytes, compressed once per encoding and the same every time", async () => {
    const cache = new RenderCache();
    const html = `<p>${"soup ".repeat(500)}</p>`;
    cache.set(stored("k", html));
    const page = cache.get("k")!;
    expect((await cache.body(page, "identity")).toString()).toBe(html);
    const br = await cache.body(page, "br");
    expect(brotliDecompressSync(br).toString()).toBe(html);
    expect(await cache.body(page, "br")).toBe(br);
    expect(gunzipSync(await cache.body(page, "gzip")).toString()).toBe(html);
    expect(cache.get("other")).toBeNull();
  });

  it("drops the least recently used pages past its size bound", () => {
    const cache = new RenderCache(8 * 100);
    const page = "x".repeat(100);
    for (const k of ["a", "b", "c", "d", "e", "f", "g", "h"]) cache.set(stored(k, page));
    expect(cache.get("a")).not.toBeNull(); // "a" is now the most recent
    cache.set(stored("i", page));
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).not.toBeNull();
    expect(cache.size).toBe(8);
  });

  it("counts a page's compressed forms against the bound", async () => {
    const cache = new RenderCache(8 * 1000);
    // Random hex compresses to about half: eight pages fit, not eight and a compressed form.
    const noisy = (k: string) => stored(k, randomBytes(475).toString("hex"));
    for (const k of ["a", "b", "c", "d", "e", "f", "g", "h"]) cache.set(noisy(k));
    await cache.body(cache.get("a")!, "gzip");
    await new Promise(setImmediate);
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).not.toBeNull();
  });
});
