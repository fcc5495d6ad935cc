/**
 * What a line pasted from a web page or a note carries besides its words, undone before either parser
 * reads it (decision 0251): html entities ("Salt &amp; pepper", "&frac12; cup", "&nbsp;") and markdown
 * emphasis ("**2 cups** flour", "__sugar__"). Neither is an ingredient's word, and both split or glue
 * the words the parsers look for.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  nbsp: " ",
  quot: '"',
  apos: "'",
  lt: "<",
  gt: ">",
  ndash: "–",
  mdash: "—",
  deg: "°",
  frasl: "⁄",
  times: "×",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  hellip: "…",
  eacute: "é",
  egrave: "è",
  ntilde: "ñ",
  ccedil: "ç",
  uuml: "ü",
  ouml: "ö",
  auml: "ä",
  frac12: "½",
  frac13: "⅓",
  frac23: "⅔",
  frac14: "¼",
  frac34: "¾",
  frac15: "⅕",
  frac16: "⅙",
  frac18: "⅛",
  frac38: "⅜",
  frac58: "⅝",
  frac78: "⅞",
};

const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z][a-z0-9]{1,7}));/gi;

function decodeEntities(line: string): string {
  if (!line.includes("&")) return line;
  // "&amp;frac12;": a page that escaped its entity once more; two passes undo both.
  for (let pass = 0; pass < 2; pass++) {
    line = line.replace(ENTITY, (m, dec: string | undefined, hex: string | undefined, name?: string) => {
      const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : null;
      if (code !== null) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      return NAMED[name!.toLowerCase()] ?? m;
    });
  }
  return line;
}

/** "**2 cups**", "__sugar__": strong emphasis, whatever it holds. */
const STRONG = /(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g;
/** "*1 tsp*", "_optional_": emphasis of words, never a lone "*" (a bullet, a footnote, "2 * 400 g"). */
const EMPHASIS = /(^|[\s(])([*_])(?=[^\s*_])([^*_]*?[^\s*_])\2(?=$|[\s),.;:!?])/g;

/** The line as a person reads it: entities decoded, markdown emphasis removed. */
export function cleanLine(line: string): string {
  let out = decodeEntities(line);
  if (out.includes("*") || out.includes("_")) out = out.replace(STRONG, "$2").replace(EMPHASIS, "$1$3");
  return out;
}
