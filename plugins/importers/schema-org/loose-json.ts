/**
 * JSON-LD as pages write it, which browsers never check: raw newlines or tabs inside strings, HTML
 * comments or CDATA markers around it (`<!--`, `//<![CDATA[`, `/*<![CDATA[*\/`), JavaScript comments
 * inside it, trailing commas, escapes JSON lacks (`\'`), a closing semicolon, the whole text
 * HTML-escaped by a CMS (`{&quot;@type&quot;:…`), or several objects one after another in one script.
 */
import { decodeHTML } from "entities";

/** The block's value; undefined when no repair makes it JSON. */
export function parseJsonLoose(text: string): unknown {
  const t = unwrapped(text);
  if (!t) return undefined;
  const tries = [t, repaired(t)];
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
 * "//" in a URL stays.
 */
function repaired(t: string): string {
  let out = "";
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') {
      let j = i + 1;
      while (j < t.length && t[j] !== '"') j += t[j] === "\\" ? 2 : 1;
      // "\'" and other escapes JSON lacks (PHP's addslashes writes them): the letter itself.
      out += t
        .slice(i, j + 1)
        .replace(/[\u0000-\u001f]+/g, " ")
        .replace(/\\([\s\S])/g, (e, c: string) => ('"\\/bfnrtu'.includes(c) ? e : c));
      i = j;
    } else if (c === "/" && t[i + 1] === "/") {
      while (i < t.length && t[i] !== "\n") i++;
      out += " ";
    } else if (c === "/" && t[i + 1] === "*") {
      const end = t.indexOf("*/", i + 2);
      i = end < 0 ? t.length : end + 1;
      out += " ";
    } else out += c <= "\u001f" ? " " : c;
  }
  // A script that ends its value as a statement ("{…};") closes with a semicolon.
  return out.replace(/,(\s*[}\]])/g, "$1").replace(/;\s*$/, "");
}
