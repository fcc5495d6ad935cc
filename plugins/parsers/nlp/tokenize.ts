/**
 * The tokeniser of the shared ingredient data (shared/fixtures/ingredients/SOURCE.md, "Reference
 * tokeniser"), re-implemented so the tagger sees at run time exactly the tokens it was trained on, and
 * the word-level figures are measured on the reference tokens. Offsets point back into the raw input.
 */

export interface Tokens {
  /** The token texts, after normalisation (`½` → `1/2`). */
  tokens: string[];
  /** `[start, end)` in the original input of each token. */
  spans: Array<[number, number]>;
}

const VULGAR: Record<string, string> = {
  "½": "1/2",
  "⅓": "1/3",
  "⅔": "2/3",
  "¼": "1/4",
  "¾": "3/4",
  "⅕": "1/5",
  "⅖": "2/5",
  "⅗": "3/5",
  "⅘": "4/5",
  "⅙": "1/6",
  "⅚": "5/6",
  "⅐": "1/7",
  "⅛": "1/8",
  "⅜": "3/8",
  "⅝": "5/8",
  "⅞": "7/8",
  "⅑": "1/9",
  "⅒": "1/10",
};

// Python's `\w` in Unicode mode is letters, all numerics and `_`; `\d` is the decimal digits.
const TOKEN =
  /\p{Nd}+(?:[.,]\p{Nd}+)?(?:\/\p{Nd}+)?|[\p{L}\p{Nl}\p{No}]+(?:[-'’][\p{L}\p{Nl}\p{No}]+)*['’]?|[^\p{L}\p{N}_\s]|_+/gu;
const HTML_FRACTION = /&frac(\d)(\d);/g;

/** Normalise as SOURCE.md says, keeping for each character of the result its offset in the input. */
export function normalise(input: string): { text: string; origin: number[] } {
  let text = "";
  const origin: number[] = [];
  const push = (s: string, at: number) => {
    for (let k = 0; k < s.length; k++) origin.push(at);
    text += s;
  };
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === "&" && input.startsWith("&frac", i)) {
      HTML_FRACTION.lastIndex = i;
      const m = HTML_FRACTION.exec(input);
      if (m && m.index === i) {
        push(` ${m[1]}/${m[2]} `, i);
        i += m[0].length - 1;
        continue;
      }
    }
    const frac = VULGAR[ch];
    if (frac !== undefined) push(` ${frac} `, i);
    else if (ch === "⁄") push("/", i);
    else if (ch === "–" || ch === "—") push("-", i);
    else if (ch === "\u00a0") push(" ", i);
    else push(ch, i);
  }
  origin.push(input.length);
  return { text, origin };
}

export function tokenize(input: string): Tokens {
  const { text, origin } = normalise(input);
  const tokens: string[] = [];
  const spans: Array<[number, number]> = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    tokens.push(m[0]);
    const start = origin[m.index];
    const lastChar = origin[m.index + m[0].length - 1];
    // A token made from one replaced character (½ → 1/2) covers that character.
    spans.push([start, Math.max(lastChar + 1, start + 1)]);
  }
  return { tokens, spans };
}
