/**
 * Text rules shared by the file format and the wire mapping. The API normalises text the same way the
 * file reader does, so that whatever the API stores reads back from its file unchanged:
 * - one-line fields (titles, summaries, ingredient notes, original texts): line breaks become spaces,
 *   surrounding whitespace is trimmed;
 * - block fields (description, step text, note text): CRLF and CR become LF, trailing whitespace of every
 *   line and leading/trailing blank lines are dropped, and the first line loses its indentation.
 */

/** One-line text as the file can hold it. */
export function normaliseLine(s: string): string {
  return (s.includes("\n") || s.includes("\r") ? s.replace(/\r\n?|\n/g, " ") : s).trim();
}

/** Whitespace other than a line feed at the end of a line. */
const TRAILING_SPACE = /[^\S\n]\n/;

/** Multi-line text as the file can hold it. */
export function normaliseBlock(s: string): string {
  // Without a CR or a line ending in whitespace, only the block's ends can change (decision 0167).
  if (!s.includes("\r") && !TRAILING_SPACE.test(s)) return s.trim();
  return s
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();
}

/** A test for text that would read as structure in some place of the file. */
export type Structural = (line: string) => boolean;

/**
 * Escape rule, used everywhere in the body: a line whose text (after any leading backslashes) would read
 * as structure gets one more leading backslash; reading removes exactly one from such lines. Other lines,
 * including ones a person wrote with a backslash (`\frac`), are left alone. The rule is reversible and
 * matches Markdown, which hides a backslash before punctuation.
 */
export function escapeLine(line: string, structural: Structural): string {
  return structural(line.replace(/^\\+/, "")) ? `\\${line}` : line;
}

/** Reverse of escapeLine. */
export function unescapeLine(line: string, structural: Structural): string {
  return line.startsWith("\\") && structural(line.replace(/^\\+/, "")) ? line.slice(1) : line;
}

/** In descriptions and notes only headings are structure (`## ` ends a section, `### ` starts a note). */
export const headingLike: Structural = (l) => l.startsWith("#");

/** A step's first line: a bold-only line would be read as the summary; `↳` starts the references line. */
export const stepFirstLineLike: Structural = (l) => isBoldOnly(l) || l.startsWith("↳");
/** A step's other lines: the last one could be taken for the references line. */
export const stepLineLike: Structural = (l) => l.startsWith("↳");

const BOLD_ONLY = /^\*\*(.+)\*\*$/s;
export function isBoldOnly(l: string): boolean {
  return BOLD_ONLY.test(l);
}
/** Inner text of a bold-only line, else null. */
export function boldInner(l: string): string | null {
  return BOLD_ONLY.exec(l)?.[1] ?? null;
}
