/**
 * A browser's first visit gets the page's stylesheets inside the HTML (decision 0309). Every paint waits
 * for the stylesheets the head links, and on a slow connection each is a round trip after the document:
 * on DevTools' "Fast 3G" (562.5 ms a request) that round trip was most of a recipe page's first paint.
 * A browser that has them in its cache (it says so with STYLES_COOKIE, lib/styles-cookie.ts, which
 * entry.client.tsx sets once it has fetched them) gets the links as before: the HTML stays small and the sheets come from its cache.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A link element of the head, and its attributes (React writes them quoted, `&`, `"`, `<` escaped). */
const LINK = /<link\b([^>]*?)\/?>/g;
const ATTRIBUTE = /([a-zA-Z-]+)="([^"]*)"/g;

/** A built asset's address (content-hashed, so its text never changes) or the theme's. */
const ASSET = /^\/assets\/[A-Za-z0-9_.-]+\.css$/;

/**
 * The document with each render-blocking stylesheet link of its head replaced by a <style> holding the
 * sheet's text, in the same place (so the cascade is the same). The style keeps the link's address and
 * precedence: entry.client.tsx links the same sheet beside it, which the browser caches and React then
 * finds as the resource it renders. A sheet `read` cannot supply stays a link.
 */
export function inlineStylesheets(html: string, read: (href: string) => string | null): string {
  const headEnd = html.indexOf("</head>");
  if (headEnd < 0) return html;
  const head = html.slice(0, headEnd).replace(LINK, (link, attributes: string) => {
    const a = new Map([...attributes.matchAll(ATTRIBUTE)].map((m) => [m[1], m[2]] as const));
    const href = a.get("href");
    const precedence = a.get("data-precedence");
    // A sheet with a `media` (print's) holds no paint and stays a link; so does one without a
    // precedence, which React does not render as a resource.
    if (a.get("rel") !== "stylesheet" || !href || !precedence || a.has("media")) return link;
    const text = read(decodeEntities(href));
    // A sheet that could close the element early is never inlined.
    if (text === null || /<\/style/i.test(text)) return link;
    return `<style data-inline-href="${href}" data-inline-precedence="${precedence}">${text}</style>`;
  });
  return head + html.slice(headEnd);
}

/** React escapes `&` in attributes; the theme's address is the only one with a query. */
function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, "&");
}

/** The text of the client build's stylesheets, read once each (their addresses carry their content hash). */
export class StylesheetTexts {
  private readonly texts = new Map<string, string | null>();

  constructor(
    private readonly clientDir: string,
    /** `/theme.css?v=…` of the current theme, and its text. */
    private readonly theme: () => { href: string; css: string },
  ) {}

  read(href: string): string | null {
    if (href.startsWith("/theme.css")) {
      const t = this.theme();
      return t.href === href ? t.css : null;
    }
    if (!ASSET.test(href)) return null;
    let text = this.texts.get(href);
    if (text === undefined) {
      try {
        text = readFileSync(join(this.clientDir, href), "utf8");
      } catch {
        text = null;
      }
      // A build has a few dozen sheets; anything else asked for is not one of them.
      if (this.texts.size < 256) this.texts.set(href, text);
    }
    return text;
  }
}
