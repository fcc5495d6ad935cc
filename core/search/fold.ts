/**
 * Text normalisation shared by search and ordering: accent and case folding, tokenising, and reading
 * a search query into terms and quoted phrases.
 */
import anyAscii from "any-ascii";

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lowercase and transliterate to ASCII (`Crème brûlée` → `creme brulee`, `ß` → `ss`). any-ascii rather
 * than NFD stripping because it also covers letters that do not decompose (ø, ł, æ, œ) and non-Latin
 * scripts. ASCII text, the common case, skips the table lookup.
 */
export function foldText(s: string): string {
  return (ASCII.test(s) ? s : anyAscii(s)).toLowerCase();
}

// Apostrophes inside words are dropped rather than split on, so "shepherd's" indexes as "shepherds".
const APOSTROPHE = /(?<=[a-z0-9])['\u2018\u2019`](?=[a-z0-9])/g;
const ANY_APOSTROPHE = /['\u2018\u2019`]/;
const NON_WORD = /[^a-z0-9]+/;

/** Folded word tokens of a text: runs of `[a-z0-9]`. */
export function tokenize(s: string | null | undefined): string[] {
  if (!s) return [];
  let folded = foldText(s);
  // The look-behind replace tries every position; most texts have no apostrophe at all, and skipping
  // it was a tenth of building the search index over 10,000 recipes (docs/decisions/0007).
  if (ANY_APOSTROPHE.test(folded)) folded = folded.replace(APOSTROPHE, "");
  const parts = folded.split(NON_WORD);
  if (parts[0] === "") parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/**
 * Whether `normalizeText(s)` can contain `word` (a run of `[a-z0-9]`): its tokens are pieces of the
 * folded text, unless an apostrophe inside a word was dropped. A cheap test before tokenising.
 */
export function mayHoldWord(s: string, word: string): boolean {
  const folded = foldText(s);
  return folded.includes(word) || ANY_APOSTROPHE.test(folded);
}

/** Folded tokens joined by single spaces: the form phrase and whole-query matching compare. */
export function normalizeText(s: string | null | undefined): string {
  return tokenize(s).join(" ");
}

export interface SearchQuery {
  /** Unquoted words, folded, in query order, duplicates removed. */
  terms: string[];
  /** Quoted phrases, each normalised (`"Animal Sloop"` → `animal sloop`); a phrase is one token. */
  phrases: string[];
  /** Every word of the query in order, normalised: compared whole against names. */
  normalized: string;
}

/**
 * Read a search string. Quoted parts are phrases (Mealie treats a quoted phrase as one token); an
 * unterminated quote runs to the end. Everything else splits into words.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const terms: string[] = [];
  const phrases: string[] = [];
  const all: string[] = [];
  const parts = q.split('"');
  parts.forEach((part, i) => {
    const toks = tokenize(part);
    all.push(...toks);
    if (i % 2 === 1) {
      if (toks.length) phrases.push(toks.join(" "));
    } else {
      for (const t of toks) if (!terms.includes(t)) terms.push(t);
    }
  });
  return { terms, phrases: [...new Set(phrases)], normalized: all.join(" ") };
}

// Words so common that matching them says nothing; dropped from a multi-word query so that
// "chicken and rice" ranks by chicken and rice. Small on purpose: a few languages' articles,
// conjunctions and prepositions that appear in recipe descriptions.
const STOP_WORDS = new Set(
  (
    "a an and the of or with in on to for from by at " +
    "und oder mit der die das ein eine von zu im " +
    "et ou avec le la les un une de du des au aux " +
    "y o con el los las del al " +
    "e con il lo gli di da " +
    "en of met het een van"
  ).split(" "),
);

/** The terms worth matching: stop words go, unless nothing else is left. */
export function significantTerms(terms: readonly string[]): string[] {
  const kept = terms.filter((t) => !STOP_WORDS.has(t));
  return kept.length ? kept : [...terms];
}
