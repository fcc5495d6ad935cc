import { describe, expect, it } from "vitest";
import { MAX_BULK_URLS, bulkUrls } from "./bulk-urls.js";

describe("the bulk import's URL list", () => {
  it("takes one URL a line, each once, and names what is not a web address", () => {
    const r = bulkUrls("https://a.example/1\n\n  http://b.example/2 \nhttps://a.example/1\nftp://c\nsoup");
    expect(r.urls).toEqual(["https://a.example/1", "http://b.example/2"]);
    expect(r.rejected).toEqual(["ftp://c", "soup"]);
  });

  it("takes several addresses on one line, and names a line with other words in it whole", () => {
    const r = bulkUrls("https://a.example/1 https://b.example/2\nnot a url\nsee https://c.example/3");
    expect(r.urls).toEqual(["https://a.example/1", "https://b.example/2"]);
    expect(r.rejected).toEqual(["not a url", "see https://c.example/3"]);
  });

  it(`stops at ${MAX_BULK_URLS} URLs`, () => {
    const text = Array.from({ length: MAX_BULK_URLS + 5 }, (_, i) => `https://x.example/${i}`).join("\n");
    expect(bulkUrls(text).urls).toHaveLength(MAX_BULK_URLS);
  });
});
