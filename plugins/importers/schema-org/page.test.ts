import { describe, expect, it } from "vitest";
import { decode } from "./page.js";

describe("a fetched page's text", () => {
  const utf8 = (s: string) => Buffer.from(s, "utf8");

  it("follows a byte-order mark over the charset the server claims, as browsers do", () => {
    const page = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8("<p>Crème brûlée</p>")]);
    expect(decode(page, "text/html; charset=iso-8859-1")).toBe("<p>Crème brûlée</p>");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<p>Käse</p>", "utf16le")]);
    expect(decode(utf16, "text/html")).toBe("<p>Käse</p>");
  });

  it("reads the header's charset, else a legacy <meta> one, else UTF-8", () => {
    const latin1 = Buffer.from("<p>Spätzle</p>", "latin1");
    expect(decode(latin1, "text/html; charset=windows-1252")).toBe("<p>Spätzle</p>");
    const meta = Buffer.concat([Buffer.from('<meta charset="iso-8859-1">'), latin1]);
    expect(decode(meta, "text/html")).toBe('<meta charset="iso-8859-1"><p>Spätzle</p>');
    expect(decode(utf8("<p>Spätzle</p>"), null)).toBe("<p>Spätzle</p>");
  });
});
