/**
 * Fenced code blocks in a recipe's text (```` ``` ```` or `~~~`, as Markdown writes them). Inside one, a
 * `## ` line is code, not a section, and is written and read back as it stands (decision 0226).
 *
 * Only a fence that is closed counts. Markdown runs an unclosed fence to the end of the document; here
 * that would turn every section after a stray ```` ``` ```` in a description into code, and a recipe
 * that read fine before would lose its ingredients and steps. The writer keeps it so: a fence line left
 * unpaired in a block is escaped, so no block's fence can pair with another block's.
 */

const OPENER = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Whether a line could open or close a fence (the writer escapes such a line left unpaired). */
export const fenceLike = (line: string): boolean => OPENER.test(line);

/**
 * For each line, whether it belongs to a closed fenced block (its fence lines included); null when the
 * text has no fence at all (most recipes: one `includes` per block).
 */
export function fencedLines(lines: readonly string[]): boolean[] | null {
  let any = false;
  for (const l of lines)
    if (l.includes("```") || l.includes("~~~")) {
      any = true;
      break;
    }
  if (!any) return null;
  // Closing-fence candidates per character, in order: an opener looks for the next one long enough.
  const closers: Record<string, { at: number; len: number }[]> = { "`": [], "~": [] };
  lines.forEach((l, at) => {
    const m = CLOSER.exec(l);
    if (m) closers[m[1][0]].push({ at, len: m[1].length });
  });
  const out = new Array<boolean>(lines.length).fill(false);
  // A bound on the search, so a hostile file of many unclosed fences stays linear.
  let budget = 4 * lines.length + 64;
  for (let i = 0; i < lines.length; i++) {
    const m = OPENER.exec(lines[i]);
    if (!m) continue;
    const ch = m[1][0];
    const len = m[1].length;
    // A backtick fence's info string holds no backtick (Markdown); "```js```" is inline code.
    if (ch === "`" && m[2].includes("`")) continue;
    const list = closers[ch];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].at <= i) lo = mid + 1;
      else hi = mid;
    }
    let close = -1;
    for (let k = lo; k < list.length && budget > 0; k++, budget--)
      if (list[k].len >= len) {
        close = list[k].at;
        break;
      }
    if (close < 0) continue;
    for (let k = i; k <= close; k++) out[k] = true;
    i = close;
  }
  return out;
}
