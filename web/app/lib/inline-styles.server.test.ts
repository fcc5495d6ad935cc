import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StylesheetTexts, inlineStylesheets } from "./inline-styles.server.js";

const sheets: Record<string, string> = {
  "/assets/root-abc.css": "body{color:red}",
  "/assets/page-def.css": ".x>.y{margin:0}",
  "/theme.css?v=t1": ":root{--c:blue}",
};
const read = (href: string) => sheets[href] ?? null;
const link = (href: string, extra = "") =>
  `<link rel="stylesheet" href="${href}"${extra} data-precedence="larder"/>`;
const page = (head: string, body = "<p>hi</p>") =>
  `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe("inlining a page's stylesheets", () => {
  it("puts each render-blocking sheet's text where its link stood, with its address and precedence", () => {
    const html = page(
      `<meta charSet="utf-8"/>${link("/assets/root-abc.css")}${link("/assets/page-def.css")}<link rel="modulepreload" href="/assets/a.js"/>`,
    );
    expect(inlineStylesheets(html, read)).toBe(
      page(
        '<meta charSet="utf-8"/>' +
          '<style data-inline-href="/assets/root-abc.css" data-inline-precedence="larder">body{color:red}</style>' +
          '<style data-inline-href="/assets/page-def.css" data-inline-precedence="larder">.x>.y{margin:0}</style>' +
          '<link rel="modulepreload" href="/assets/a.js"/>',
      ),
    );
  });

  it("reads past the nonce React writes on a streamed page's links", () => {
    const html = page(
      `<link nonce="n0nce==" rel="stylesheet" href="/theme.css?v=t1" data-precedence="theme"/>`,
    );
    expect(inlineStylesheets(html, read)).toContain(
      '<style data-inline-href="/theme.css?v=t1" data-inline-precedence="theme">:root{--c:blue}</style>',
    );
  });

  it("leaves print's sheet, a link without precedence, an unknown sheet and the body's links as they are", () => {
    const kept = [
      link("/assets/root-abc.css", ' media="print"'),
      '<link rel="stylesheet" href="/assets/root-abc.css"/>',
      link("/assets/gone-000.css"),
      '<link rel="icon" href="/favicon.svg"/>',
    ].join("");
    const html = page(kept, link("/assets/root-abc.css"));
    expect(inlineStylesheets(html, read)).toBe(html);
  });

  it("never inlines a sheet whose text could close the element", () => {
    const html = page(link("/assets/evil-1.css"));
    expect(inlineStylesheets(html, () => "a{}</STYLE><script>alert(1)</script>")).toBe(html);
  });

  it("leaves a document without a head alone", () => {
    expect(inlineStylesheets(link("/assets/root-abc.css"), read)).toBe(link("/assets/root-abc.css"));
  });
});

describe("the sheets' texts", () => {
  const dir = mkdtempSync(join(tmpdir(), "larder-inline-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "assets", "root-abc.css"), "body{}");
  writeFileSync(join(dir, "secret.css"), "not served");
  const theme = { href: "/theme.css?v=now", css: ":root{}" };
  const texts = new StylesheetTexts(dir, () => theme);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a built sheet from the client folder and the current theme's from its builder", () => {
    expect(texts.read("/assets/root-abc.css")).toBe("body{}");
    expect(texts.read("/theme.css?v=now")).toBe(":root{}");
  });

  it("gives nothing for another theme's address, a missing sheet, or an address outside the assets", () => {
    expect(texts.read("/theme.css?v=older")).toBeNull();
    expect(texts.read("/assets/missing-1.css")).toBeNull();
    expect(texts.read("/secret.css")).toBeNull();
    expect(texts.read("/assets/../secret.css")).toBeNull();
    expect(texts.read("/assets/root-abc.js")).toBeNull();
  });
});
