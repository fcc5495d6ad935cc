/**
 * What every answer of the HTTP edge carries (web/server/server.ts, static-files.ts, entry.server.tsx):
 * a CSP naming each page's own inline scripts (by hash on a stored page, by a fresh nonce on a streamed
 * one) and no others, nosniff everywhere, brotli/gzip where it pays and never on media,
 * conditional and range requests for static files, UTF-8 download names, and one quiet log line for
 * a bad data request. Pages need the UI build (`npm run build`); CI builds before it tests.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defaultBuildDir } from "../../web/server/server.js";
import { attachment } from "../../web/server/edge.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { withoutUiBuild } from "../support/ui-build.js";

const CLIENT = join(defaultBuildDir(), "client");
const skipUi = withoutUiBuild("http answers");

/** The largest JavaScript file of the client build (the one worth compressing). */
function biggestScript(): string {
  const dir = join(CLIENT, "assets");
  const js = readdirSync(dir).filter((f) => f.endsWith(".js"));
  js.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size);
  return `/assets/${js[0]}`;
}

describe("Content-Disposition", () => {
  it("keeps a UTF-8 file name (filename*) with a transliterated ASCII fallback", () => {
    const header = attachment("Crème brûlée.pdf");
    expect(header).toContain(`filename="Creme brulee.pdf"`);
    expect(header).toContain("filename*=UTF-8''Cr%C3%A8me%20br%C3%BBl%C3%A9e.pdf");
    expect(attachment("tart.zip")).toBe(`attachment; filename="tart.zip"`);
    expect(attachment("plan.pdf", "inline")).toBe(`inline; filename="plan.pdf"`);
  });

  it("cannot be broken out of by quotes, backslashes or line breaks in a name", () => {
    const header = attachment('a"b\\c\r\nSet-Cookie: x=1.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith(`attachment; filename="a_b_c`)).toBe(true);
  });
});

describe.skipIf(skipUi)("HTTP answers", () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    token = await t.login();
  });
  afterAll(async () => t?.close());

  /** The page's executable inline scripts: each with its attributes and its text. */
  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script/gi)]
      .filter((m) => !/type="application\/(ld\+)?json"/.test(m[1]))
      .map((m) => ({ attrs: m[1], text: m[2] }));
  const hashOf = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

  const expectStrictPolicy = (csp: string) => {
    expect(csp).toMatch(/script-src 'self' '(nonce|sha256)-/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'self'/);
  };

  it("names a stored page's inline scripts by hash in its CSP, and nothing else, with no nonce", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${t.url}/login`);
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expectStrictPolicy(csp);
      expect(csp).not.toMatch(/'nonce-/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await res.text();
      expect(html).not.toMatch(/\snonce=/);
      const scripts = inlineScripts(html);
      expect(scripts.length).toBeGreaterThan(0);
      const allowed = /script-src ([^;]*)/
        .exec(csp)![1]
        .split(" ")
        .filter((s) => s.startsWith("'sha256-"));
      expect(new Set(allowed)).toEqual(new Set(scripts.map((s) => hashOf(s.text))));
    }
  });

  it("streams a page it does not store under a fresh nonce that all its inline scripts carry", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      // A failed sign-in answers with action data: a page that is never stored.
      const res = await fetch(`${t.url}/login`, {
        method: "POST",
        headers: { Origin: t.url, "Content-Type": "application/x-www-form-urlencoded" },
        body: "username=nobody%40example.com&password=wrong-password",
      });
      const csp = res.headers.get("content-security-policy") ?? "";
      expectStrictPolicy(csp);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      const scripts = inlineScripts(await res.text());
      expect(scripts.length).toBeGreaterThan(0);
      for (const s of scripts) expect(s.attrs).toContain(`nonce="${nonce}"`);
      nonces.add(nonce as string);
    }
    expect(nonces.size).toBe(2);
  });

  it("sends nosniff with API JSON, errors, media, static files and refusals", async () => {
    const answers = [
      await t.api("/api/app/about"),
      await t.api("/api/recipes", { token }),
      await t.api("/api/nope"),
      await fetch(`${t.url}${biggestScript()}`),
      await fetch(`${t.url}/favicon.svg`),
      await fetch(`${t.url}/login`, { method: "POST", headers: { Origin: "http://evil.example" } }),
    ];
    for (const res of answers) expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
  });

  it("answers a browser's own /favicon.ico with an icon, not a 404", async () => {
    const res = await fetch(`${t.url}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    const bytes = Buffer.from(await res.arrayBuffer());
    // An icon directory (reserved 0, type 1) of at least one image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
    expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it("serves the build's brotli or gzip twin of a script by Accept-Encoding, with Vary", async () => {
    const path = biggestScript();
    const original = readFileSync(join(CLIENT, path));
    const br = await fetch(t.url + path, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(br.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(br.headers.get("cache-control")).toMatch(/immutable/);
    // fetch decodes the body itself: it must be the original file.
    expect(Buffer.from(await br.arrayBuffer()).equals(original)).toBe(true);
    expect(statSync(join(CLIENT, `${path}.br`)).size).toBeLessThan(original.length / 2);
    expect(brotliDecompressSync(readFileSync(join(CLIENT, `${path}.br`))).equals(original)).toBe(true);
    expect(gunzipSync(readFileSync(join(CLIENT, `${path}.gz`))).equals(original)).toBe(true);
    const gz = await fetch(t.url + path, { headers: { "Accept-Encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    await gz.arrayBuffer();
    const plain = await fetch(t.url + path, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(Number(plain.headers.get("content-length"))).toBe(original.length);
    await plain.arrayBuffer();
  });

  it("answers a static file's ETag with 304 and a byte range with 206", async () => {
    const path = biggestScript();
    const first = await fetch(t.url + path, { headers: { "Accept-Encoding": "identity" } });
    const etag = first.headers.get("etag");
    await first.arrayBuffer();
    expect(etag).toBeTruthy();
    // As a browser revalidates (fetch() would otherwise add `Cache-Control: no-cache`, which forbids a 304).
    const again = await fetch(t.url + path, {
      headers: { "Accept-Encoding": "identity", "If-None-Match": etag ?? "", "Cache-Control": "max-age=0" },
    });
    expect(again.status).toBe(304);
    const part = await fetch(t.url + path, {
      headers: { "Accept-Encoding": "identity", Range: "bytes=0-9" },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toMatch(/^bytes 0-9\//);
    expect(
      Buffer.from(await part.arrayBuffer()).equals(readFileSync(join(CLIENT, path)).subarray(0, 10)),
    ).toBe(true);
    const beyond = await fetch(t.url + path, {
      headers: { "Accept-Encoding": "identity", Range: "bytes=999999999-" },
    });
    expect(beyond.status).toBe(416);
  });

  it("compresses pages and JSON on the fly, never images or zips", async () => {
    const page = await fetch(`${t.url}/login`, { headers: { "Accept-Encoding": "br" } });
    expect(page.headers.get("content-encoding")).toBe("br");
    expect(page.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(await page.text()).toMatch(/<html/);

    const slugs: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.api("/api/recipes", {
        method: "POST",
        token,
        json: { name: `Compressed soup ${i}` },
      });
      slugs.push((await res.json()) as string);
    }
    const json = await t.api("/api/recipes?perPage=50", { token, headers: { "Accept-Encoding": "gzip" } });
    expect(json.headers.get("content-encoding")).toBe("gzip");
    expect(((await json.json()) as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(12);

    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c0392b" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("image", new Blob([new Uint8Array(png)]), "x.png");
    form.set("extension", "png");
    expect((await t.api(`/api/recipes/${slugs[0]}/image`, { method: "PUT", token, body: form })).status).toBe(
      200,
    );
    const { id } = (await (await t.api(`/api/recipes/${slugs[0]}`, { token })).json()) as { id: string };
    const image = await t.api(`/api/media/recipes/${id}/images/original.webp`, {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-encoding")).toBeNull();
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");

    const { token: zipToken } = (await (
      await t.api(`/api/recipes/${slugs[0]}/exports`, { method: "POST", token })
    ).json()) as {
      token: string;
    };
    const zip = await t.api(`/api/recipes/${slugs[0]}/exports/zip?token=${encodeURIComponent(zipToken)}`, {
      headers: { "Accept-Encoding": "gzip, br" },
    });
    expect(zip.headers.get("content-type")).toMatch(/zip/);
    expect(zip.headers.get("content-encoding")).toBeNull();
  });

  it("logs one line, no stack trace, for a bad data request", async () => {
    const error = vi.spyOn(t.larder.log, "error");
    const warn = vi.spyOn(t.larder.log, "warn");
    const bad = [
      "/?_data=routes/_index",
      "/login.data?_routes=nope",
      "/g/home.data?_routes=routes%2Fnothing",
      "/nothing/at/all.data",
      "/__manifest?version=nope&paths=/x",
    ];
    for (const path of bad) {
      const res = await fetch(t.url + path);
      expect(res.status, path).toBeLessThan(500);
      await res.arrayBuffer();
    }
    const malformed = await fetch(`${t.url}/%E0%A4%A`);
    expect(malformed.status).toBe(400);
    const notAForm = await fetch(`${t.url}/login`, {
      method: "POST",
      headers: { Origin: t.url, "Content-Type": "application/json" },
      body: "{bad",
    });
    expect(notAForm.status).toBe(415);
    expect(await notAForm.text()).toMatch(/form posts only/);
    expect(error).not.toHaveBeenCalled();
    for (const call of warn.mock.calls)
      for (const arg of call) expect(arg instanceof Error, String(call[0])).toBe(false);
  });
});
