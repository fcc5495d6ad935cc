/**
 * Lines a page's editor wrapped in its source, read as the browser shows them; and lines that are one
 * ingredient each.
 */

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

/** A line that starts as an ingredient does: an amount or a capital ("½ cup oil", "Kosher salt"). */
const STARTS_A_LINE = /^[\p{Lu}\p{N}½¼¾⅓⅔⅛⅜⅝⅞]/u;
/** A line that goes on in the next: "1 cup flour,", "salt and", "2 (". */
const GOES_ON = /(?:[,(/&+–-]|\b(?:and|or|of|with|plus))$/iu;

/**
 * Whether an ingredient's text broken into lines is several ingredients, one a line ("¼ cup lemon
 * juice⏎½ cup olive oil⏎Kosher salt"): every line after the first starts as an ingredient does and none
 * before the last ends mid-phrase. "2 cups⏎flour, sifted" is one ingredient the page wrapped.
 */
export function oneIngredientEach(lines: readonly string[]): boolean {
  return (
    lines.length > 1 &&
    lines.slice(1).every((l) => STARTS_A_LINE.test(l)) &&
    lines.slice(0, -1).every((l) => !GOES_ON.test(l) && /\p{L}/u.test(l))
  );
}
