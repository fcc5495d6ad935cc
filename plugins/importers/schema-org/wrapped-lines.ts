/** Lines a page's editor wrapped in its source, read as the browser shows them. */

/** A line of the page's source at least this long, cut before the sentence ends, was wrapped by its editor. */
const WRAPPED_LINE = 50;

/**
 * Text as the page's source wrapped it, unwrapped: a long line that stops mid-sentence and a next one
 * going on in lower case are one line ("Junte os⏎cogumelos, o limão…" in a microdata step). Short lines
 * and lines that end a sentence keep their break: a property's list written one item per line, shown
 * with `white-space: pre-line`, stays a list.
 */
export function unwrapped(text: string): string {
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  let out = lines[0];
  for (let i = 1; i < lines.length; i++) {
    const before = lines[i - 1].trimEnd();
    const joins = before.length >= WRAPPED_LINE && !/[.!?:;]$/.test(before) && /^\s*\p{Ll}/u.test(lines[i]);
    out = joins ? `${out.trimEnd()} ${lines[i].trimStart()}` : `${out}\n${lines[i]}`;
  }
  return out;
}
