/**
 * How deep a page's elements nest, read from its tags without building the tree. Parsing and walking
 * a page nested 180,000 elements deep held the server for 42 s (the parser's work grows faster than the
 * page, and the walk overflowed the stack); real recipe pages nest a few dozen deep.
 */
export const MAX_NESTING = 1500;

/** Elements a page may leave open and a browser closes itself: not counted. */
const SELF_CLOSING = new Set(
  `area base br col embed hr img input link meta param source track wbr p li option optgroup td th tr
  tbody thead tfoot colgroup dt dd rb rt rp`.split(/\s+/),
);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g;

/** Whether the page nests deeper than MAX_NESTING (stops reading at the first point it does). */
export function nestsTooDeep(html: string): boolean {
  let depth = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(html); m !== null; m = TAG.exec(html)) {
    const name = m[2].toLowerCase();
    if (SELF_CLOSING.has(name) || m[3] === "/") continue;
    if (m[1] === "/") depth = Math.max(0, depth - 1);
    else if (++depth > MAX_NESTING) return true;
  }
  return false;
}
