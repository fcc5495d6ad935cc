import { describe, expect, it } from "vitest";
import { cardText, markdownToText, renderMarkdown, sanitizeIngredientText } from "./markdown.js";

/** Every href/src value in a piece of HTML. */
function urls(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map(
    (m) => m[2] ?? m[3] ?? m[4] ?? "",
  );
}

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    const html = renderMarkdown("A **bold** soup\n\n- one\n- two");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("<li>one</li>");
  });

  it("keeps allowed raw HTML: tables and images", () => {
    const html = renderMarkdown(
      '<table><tr><td colspan="2">x</td></tr></table>\n\n<img src="https://example.com/a.png" alt="a">',
    );
    expect(html).toContain('<td colspan="2">x</td>');
    expect(html).toContain('src="https://example.com/a.png"');
    expect(html).toContain('alt="a"');
  });

  it("strips event handlers from <img onerror>", () => {
    const html = renderMarkdown('<img src="x" onerror="alert(1)">');
    expect(html).toContain("<img");
    expect(html).not.toMatch(/onerror/i);
    expect(html).not.toContain("alert");
  });

  it("removes <script> with its content, in any case", () => {
    for (const src of [
      "<script>alert(1)</script>",
      "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
      "text <script>\nalert(1)\n</script> more",
    ]) {
      const html = renderMarkdown(src);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toContain("alert(1)");
    }
  });

  it("makes javascript: links inert (markdown and raw HTML, obfuscated)", () => {
    const inputs = [
      "[click](javascript:alert(1))",
      '<a href="javascript:alert(1)">click</a>',
      '<a href="JaVaScRiPt:alert(1)">click</a>',
      '<a href="java&#x09;script:alert(1)">click</a>',
      '<a href=" javascript:alert(1)">click</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
    ];
    for (const src of inputs) {
      const html = renderMarkdown(src);
      for (const url of urls(html)) expect(url).not.toMatch(/^\s*(javascript|data|vbscript):/i);
      expect(html).not.toMatch(/<a[^>]*href="[^"]*script/i);
      expect(html).toContain("click");
    }
  });

  it("drops other script vectors: svg onload, style, iframes from elsewhere, form", () => {
    const html = renderMarkdown(
      '<svg onload="alert(1)"></svg><p style="background:url(javascript:alert(1))" onclick="x()">p</p>' +
        '<iframe src="https://evil.example/x"></iframe><iframe src="javascript:alert(1)"></iframe>' +
        '<form action="/x"><input name="a"></form><object data="x"></object>',
    );
    expect(html).not.toMatch(/svg|onload|onclick|style=|evil\.example|javascript|<form|<input|<object/i);
    expect(html).toContain("<p>p</p>");
  });

  it("allows https YouTube and Vimeo iframes only", () => {
    const yt = renderMarkdown('<iframe src="https://www.youtube.com/embed/abc" allowfullscreen></iframe>');
    expect(yt).toContain('src="https://www.youtube.com/embed/abc"');
    const vimeo = renderMarkdown('<iframe src="https://player.vimeo.com/video/1"></iframe>');
    expect(vimeo).toContain('src="https://player.vimeo.com/video/1"');
    expect(renderMarkdown('<iframe src="http://www.youtube.com/embed/abc"></iframe>')).not.toContain(
      "<iframe",
    );
    expect(renderMarkdown('<iframe src="//www.youtube.com/embed/abc"></iframe>')).not.toContain("<iframe");
    expect(
      renderMarkdown('<iframe src="https://www.youtube.com.evil.example/embed"></iframe>'),
    ).not.toContain("<iframe");
  });

  it("opens external links in a new tab without an opener", () => {
    const html = renderMarkdown("[site](https://example.com)");
    expect(urls(html)).toEqual(["https://example.com"]);
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
  });

  it("is empty for nothing", () => {
    expect(renderMarkdown(null)).toBe("");
    expect(renderMarkdown("")).toBe("");
  });
});

describe("markdownToText", () => {
  it("drops markup and decodes entities", () => {
    expect(markdownToText("A **bold** soup & <i>more</i>\n\n<script>alert(1)</script>")).toBe(
      "A bold soup & more",
    );
  });

  it("reads a '>' in an attribute or the text as text, not as the end of a tag", () => {
    expect(
      markdownToText(
        'Use <a title="a > b" href="https://x.example">the <em>link</em></a> if 1 < 2 &amp; 3 > 2',
      ),
    ).toBe("Use the link if 1 < 2 & 3 > 2");
    expect(markdownToText("<style>p > a { color: red }</style>Literal &lt;b&gt; stays\n\n- one\n- two")).toBe(
      "Literal <b> stays one two",
    );
  });
});

describe("sanitizeIngredientText", () => {
  it("keeps b, q, i, strong, sup only, without attributes", () => {
    expect(
      sanitizeIngredientText(
        '<sup onclick="x()">1</sup>/2 cup <b>flour</b> <a href="javascript:1">x</a><img src=x onerror=alert(1)>',
      ),
    ).toBe("<sup>1</sup>/2 cup <b>flour</b> x");
  });
});

describe("renderMarkdown on text made to be slow", () => {
  it("shows a text with thousands of markdown delimiters as plain text, escaped, at once", () => {
    for (const hostile of ["**_".repeat(100_000), "<a".repeat(100_000), "`a".repeat(100_000)]) {
      const started = performance.now();
      const html = renderMarkdown(hostile);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(html.startsWith("<p>")).toBe(true);
      expect(html).not.toMatch(/<a\b|<strong|<em|<code/);
    }
    expect(renderMarkdown("a <b> & c\n\nnext\nline".padEnd(10_000, "*"))).toMatch(
      /^<p>a &lt;b&gt; &amp; c<\/p>\n<p>next<br>line/,
    );
  });

  it("still renders ordinary long prose as markdown", () => {
    expect(renderMarkdown("Some **bold** words. ".repeat(1000))).toContain("<strong>bold</strong>");
  });

  it("gives a card only the start of a long description", () => {
    const text = cardText("A **rich** stew. ".repeat(50_000));
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.startsWith("A rich stew.")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
  });
});
