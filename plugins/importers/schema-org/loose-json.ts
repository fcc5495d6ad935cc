/**
 * JSON-LD as pages write it, which browsers never check: raw newlines or tabs inside strings, HTML
 * comments or CDATA markers around it (`<!--`, `//<![CDATA[`, `/*<![CDATA[*\/`), JavaScript comments
 * inside it, trailing commas, escapes JSON lacks (`\'`), a closing semicolon, the whole text
 * HTML-escaped by a CMS (`{&quot;@type&quot;:…`), several objects one after another in one script, or
 * double quotes left unescaped inside strings (`"The "best" cake"`, `"Add 2" of water"`), which
 * WordPress themes that build the block by hand write.
 */
import { decodeHTML } from "entities";

/** The block's value; undefined when no repair makes it JSON. */
export function parseJsonLoose(text: string): unknown {
  const t = unwrapped(text);
  if (!t) return undefined;
  // Quotes are read as literal only when nothing else makes the text JSON: on text that is JSON but
  // for other damage, a quote followed by odd text is more likely that damage (a comment, a missing
  // comma) than a quote.
  const tries = [t, repaired(t), repaired(t, { quotes: true })];
  // A CMS that escaped the script's text as HTML: only when the text shows it (`&quot;` for `"`).
  if (/&(?:quot|#34|#x22);/i.test(t)) tries.push(repaired(unwrapped(decodeHTML(t))));
  for (const attempt of tries) {
    const value = parsed(attempt);
    if (value !== undefined) return value;
    // Objects side by side ("{…}{…}" or "{…},{…}") read as the list they mean.
    if (/^\{[\s\S]*\}$/.test(attempt)) {
      const list = parsed(`[${attempt.replace(/\}\s*(?:,\s*)?(?=\{\s*")/g, "},")}]`);
      if (list !== undefined) return list;
    }
  }
  return undefined;
}

function parsed(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** Without the markers pages put around a script's text to hide it from old parsers. */
function unwrapped(text: string): string {
  const opened = text
    .trim()
    .replace(/^<!--/, "")
    .replace(/-->$/, "")
    .trim()
    .replace(/^(?:\/\/|\/\*)?\s*<!\[CDATA\[\s*(?:\*\/)?/, "");
  return withoutClosingCdata(opened).trim();
}

/**
 * Without a closing `]]>` (and the `//`, `/*` or `*\/` around it). Read from the end by hand: the
 * pattern as an end-anchored regular expression is tried from every position of a run of whitespace,
 * so a hostile page's script of a million spaces held the server for minutes.
 */
function withoutClosingCdata(text: string): string {
  let t = text.trimEnd();
  if (t.endsWith("*/") && t.slice(0, -2).trimEnd().endsWith("]]>")) t = t.slice(0, -2).trimEnd();
  if (!t.endsWith("]]>")) return text;
  t = t.slice(0, -3).trimEnd();
  return t.endsWith("//") || t.endsWith("/*") ? t.slice(0, -2) : t;
}

/**
 * Comments gone and control characters blanked (inside strings they are the commonest breakage,
 * outside they are whitespace), then trailing commas dropped; strings are read as strings, so a
 * "//" in a URL stays. With `quotes`, a `"` inside a string ends it only where JSON could go on after
 * a string (see `endsString`); any other is escaped as the literal quote it is.
 */
export function repaired(t: string, opts: { quotes?: boolean } = {}): string {
  let out = "";
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') {
      let j = i + 1;
      let body = "";
      let from = j;
      for (; j < t.length; j += t[j] === "\\" ? 2 : 1) {
        if (t[j] !== '"') continue;
        if (!opts.quotes || endsString(t, j + 1)) break;
        body += `${t.slice(from, j)}\\"`;
        from = j + 1;
      }
      body += t.slice(from, j);
      // "\'" and other escapes JSON lacks (PHP's addslashes writes them): the letter itself.
      out += `"${body
        .replace(/[\u0000-\u001f]+/g, " ")
        .replace(/\\([\s\S])/g, (e, c: string) =>
          '"\\/bfnrtu'.includes(c) ? e : c,
        )}${j < t.length ? '"' : ""}`;
      i = j;
    } else if (c === "/" && t[i + 1] === "/") {
      while (i < t.length && t[i] !== "\n") i++;
      out += " ";
    } else if (c === "/" && t[i + 1] === "*") {
      const end = t.indexOf("*/", i + 2);
      i = end < 0 ? t.length : end + 1;
      out += " ";
    } else if (c === "," && "}]".includes(t[pastSpaceAndComments(t, i + 1)] ?? "")) {
      // A trailing comma, dropped here rather than by a pattern over the result, which would reach
      // into strings ("Salt, ]").
      out += " ";
    } else out += c <= "\u001f" ? " " : c;
  }
  // A script that ends its value as a statement ("{…};") closes with a semicolon.
  return out.replace(/;\s*$/, "");
}

/**
 * Whether a `"` whose next character is at `k` can close a string: what follows (after whitespace)
 * is the end, `}`, `]` or a comment, or a `,` or `:` that a value (or a closing bracket, after a
 * comma) follows. "2" of water" goes on with a word, so its quote is the inch mark; in
 * `"…", "name":` the quote before the comma closes. Each look-ahead crosses only whitespace up to
 * the next quote at most, which the scan then starts from, so the whole pass stays linear.
 */
function endsString(t: string, k: number): boolean {
  k = pastSpace(t, k);
  const c = t[k];
  if (c === undefined || c === "}" || c === "]" || isComment(t, k)) return true;
  if (c !== "," && c !== ":") return false;
  const v = pastSpace(t, k + 1);
  const d = t[v];
  if (d === undefined || '"{[-'.includes(d) || (d >= "0" && d <= "9") || isComment(t, v)) return true;
  if (c === "," && (d === "]" || d === "}")) return true;
  return /^(?:true|false|null)(?![\p{L}\p{N}_])/u.test(t.slice(v, v + 6));
}

function pastSpace(t: string, k: number): number {
  while (k < t.length && (t[k] === " " || t[k] === "\n" || t[k] === "\r" || t[k] === "\t")) k++;
  return k;
}

/** Past whitespace and comments; a comma's look-ahead crosses only what the scan then skips. */
function pastSpaceAndComments(t: string, k: number): number {
  for (;;) {
    k = pastSpace(t, k);
    if (!isComment(t, k)) return k;
    const end = t[k + 1] === "/" ? t.indexOf("\n", k) : t.indexOf("*/", k + 2) + 1;
    if (end <= 0) return t.length;
    k = end + 1;
  }
}

const isComment = (t: string, k: number) => t[k] === "/" && (t[k + 1] === "/" || t[k + 1] === "*");
