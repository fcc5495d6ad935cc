/**
 * Markdown for recipe descriptions, steps and notes (spec §9): markdown-it with raw HTML allowed, then
 * sanitize-html with a fixed whitelist. Raw HTML is allowed because Mealie recipes carry it (embedded
 * videos, tables); the sanitiser is what makes it safe: no script, no event handlers, no `javascript:` or
 * `data:` URLs, iframes only from https YouTube/Vimeo. Runs on the server (loaders), never in the browser.
 */
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

// CommonMark line handling (no `breaks`): recipe files are hand-edited Markdown with soft-wrapped lines.
const md = new MarkdownIt({ html: true, linkify: true, breaks: false, typographer: false });

const IFRAME_HOSTS = ["www.youtube.com", "youtube.com", "www.youtube-nocookie.com", "player.vimeo.com"];

const ALLOWED_TAGS = [
  "p",
  "br",
  "hr",
  "span",
  "div",
  "blockquote",
  "pre",
  "code",
  "kbd",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "del",
  "ins",
  "mark",
  "small",
  "sub",
  "sup",
  "q",
  "abbr",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "a",
  "img",
  "figure",
  "figcaption",
  "iframe",
  "table",
  "caption",
  "colgroup",
  "col",
  "thead",
  "tbody",
  "tfoot",
  "tr",
  "th",
  "td",
  "details",
  "summary",
];

const MARKDOWN_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  disallowedTagsMode: "discard",
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "width", "height", "loading"],
    iframe: [
      "src",
      "width",
      "height",
      "title",
      "allow",
      "allowfullscreen",
      "frameborder",
      "loading",
      "referrerpolicy",
    ],
    th: ["colspan", "rowspan", "style"],
    td: ["colspan", "rowspan", "style"],
    col: ["span"],
    ol: ["start"],
    abbr: ["title"],
    code: ["class"],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  // markdown-it writes table alignment as style="text-align:…"; nothing else survives in a style.
  allowedStyles: {
    th: { "text-align": [/^(left|right|center)$/] },
    td: { "text-align": [/^(left|right|center)$/] },
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"], iframe: ["https"] },
  allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
  allowProtocolRelative: false,
  allowedIframeHostnames: IFRAME_HOSTS,
  allowIframeRelativeUrls: false,
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? "";
      const external = /^(https?:)?\/\//i.test(href);
      const out: Record<string, string> = { ...attribs };
      if (external) {
        out.target = "_blank";
        out.rel = "noopener noreferrer nofollow";
      } else {
        delete out.target;
      }
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
    iframe: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, loading: "lazy", referrerpolicy: "strict-origin-when-cross-origin" },
    }),
  },
  exclusiveFilter: (frame) => frame.tag === "iframe" && !frame.attribs.src,
};

/** Markdown (with raw HTML) to sanitised HTML, safe for dangerouslySetInnerHTML. */
export function renderMarkdown(source: string | null | undefined): string {
  if (!source) return "";
  if (tooManyDelimiters(source)) return plainTextHtml(source);
  return sanitizeHtml(md.render(source), MARKDOWN_OPTIONS);
}

/**
 * Markdown's delimiters past which a text is shown as plain text. markdown-it pairs emphasis, code
 * spans and tags in time that grows with the square of their runs: 60,000 characters of `**_` took
 * half a second per render, 40,000 of `` `a `` more, and a text any member can save was a way to hold
 * the server. Prose with formatting has a few hundred; at these limits the worst text renders in about
 * 50 ms.
 */
export const MAX_MARKDOWN_DELIMITERS = 8000;
export const MAX_MARKDOWN_BACKTICKS = 2000;

function tooManyDelimiters(source: string): boolean {
  if (source.length < MAX_MARKDOWN_BACKTICKS) return false;
  let n = 0;
  let ticks = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 96) {
      if (++ticks > MAX_MARKDOWN_BACKTICKS) return true;
    } else if (c === 42 || c === 95 || c === 60 || c === 91 || c === 93 || c === 126) {
      // * _ < [ ] ~
      if (++n > MAX_MARKDOWN_DELIMITERS) return true;
    }
  }
  return false;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** The text as paragraphs (blank lines) and line breaks, every character shown as written. */
function plainTextHtml(source: string): string {
  return source
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.replace(/[&<>"']/g, (c) => ESCAPES[c]).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** Markdown to plain text (cards, meta descriptions, JSON-LD): rendered as the page shows it, then read as text. */
export function markdownToText(source: string | null | undefined): string {
  return source ? htmlToText(renderMarkdown(source)) : "";
}

/**
 * The start of a text for a recipe card, which shows three lines of it: only the start is rendered,
 * so a recipe with a book-length description costs a card no more than any other.
 */
export function cardText(source: string | null | undefined, max = 300): string {
  if (!source) return "";
  const text = markdownToText(source.length > max * 8 ? source.slice(0, max * 8) : source);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * The text of `renderMarkdown`'s output: its tags dropped, entities read, white space collapsed. Only for
 * sanitised HTML, where every `<` and `>` outside a tag (in text and attribute values alike) is escaped,
 * so a tag is exactly a `<…>` run. The page's memo of rendered texts can then serve both (decision 0172).
 */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/** Ingredient text: only b, q, i, strong, sup, without attributes (spec §9). */
export function sanitizeIngredientText(source: string | null | undefined): string {
  if (!source) return "";
  return sanitizeHtml(source, { allowedTags: ["b", "q", "i", "strong", "sup"], allowedAttributes: {} });
}

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#0*39;/g, "'")
    .replace(/&#x0*27;/gi, "'")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");
}
