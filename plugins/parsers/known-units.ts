/**
 * Words that are units whatever a group's vocabulary holds (decision 0231): the tagger's unit list and
 * the units Larder seeds a group with in each of its locales ("theelepel", "EL", "Prise", "cucharada").
 * The brute parser takes the word after the amount as the unit only when it is one of these or a unit of
 * the group, so "2 large eggs" is two eggs, not two "large".
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { normaliseKey } from "../../core/parsers/matcher.js";
import type { ParsedRef, VocabularyMatcher } from "../../core/plugins/kinds.js";
import { UNIT_LEXICON, singular } from "./nlp/lexicon.js";

/** Units no seed names: a knife's tip of a spice, in Dutch and German. */
const EXTRA = ["mespunt", "mespuntje", "messerspitze", "msp"];

/** templates/seed/ of the source tree or the installation (built output sits deeper below it). */
function seedRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "templates", "seed");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

type SeedUnit = {
  name: string;
  pluralName?: string | null;
  abbreviation?: string | null;
  pluralAbbreviation?: string | null;
  aliases?: Array<string | { name: string }>;
};

let known: Set<string> | null = null;
let english: string[] | null = null;

function seedUnitKeys(root: string, locale: string): string[] {
  const file = join(root, locale, "units.json");
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, "utf8")) as SeedUnit[]).flatMap((u) => {
    const aliases = (u.aliases ?? []).map((a) => (typeof a === "string" ? a : a.name));
    return [u.name, u.pluralName, u.abbreviation, u.pluralAbbreviation, ...aliases]
      .filter((key): key is string => !!key?.trim())
      .map(normaliseKey);
  });
}

function load(): Set<string> {
  const out = new Set<string>([...UNIT_LEXICON, ...EXTRA].map(normaliseKey));
  const root = seedRoot();
  if (!root) return out;
  for (const locale of readdirSync(root)) for (const key of seedUnitKeys(root, locale)) out.add(key);
  return out;
}

/** Whether a word (any case, a trailing full stop or an optional ending in brackets allowed) is a unit. */
export function isBuiltInUnit(word: string): boolean {
  known ??= load();
  const w = normaliseKey(word);
  // "snuf(je)", "cup(s)": the word with and without its optional ending.
  const forms = [w, w.replace(/\.$/, ""), w.replace(/\(([a-z]+)\)$/, "$1"), w.replace(/\([a-z]+\)$/, "")];
  return forms.some((f) => f !== "" && known!.has(f));
}

/**
 * Whether `word` is `key` with one slip of the hand: a letter left out ("tablspoons", "teaspon"), one
 * too many ("teaspooon", "popunds"), two neighbours swapped ("tablepsoon"), or in a word of 8 letters
 * or more one changed ("tablespoom"). Never at the first letter, and never at the last: a letter more,
 * less or other at the end makes another word of the same stem ("bottled", "packaged", "sliced",
 * "leave"), except a doubled last letter ("handfull").
 */
export function oneSlip(word: string, key: string): boolean {
  if (word === key || word[0] !== key[0]) return false;
  const n = word.length;
  if (n === key.length) {
    let i = 0;
    while (word[i] === key[i]) i++;
    const swapped = i + 1 < n && word[i] === key[i + 1] && word[i + 1] === key[i];
    if (swapped) return word.slice(i + 2) === key.slice(i + 2);
    return n >= 8 && i < n - 1 && word.slice(i + 1) === key.slice(i + 1);
  }
  const [short, long] = n < key.length ? [word, key] : [key, word];
  if (long.length - short.length !== 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (i === short.length) return long === word && long[i] === long[i - 1];
  return short.slice(i) === long.slice(i + 1);
}

/**
 * The English unit (tagger's list, en-US seed) a word of 5 letters or more misspells by one slip, or
 * null. Only units of 6 letters or more are read so: below that a slip turns foods into units ("pinto"
 * is one letter from "pints", "spring" from "sprig"), and other locales' units are left out ("pitas" is
 * one letter from the Spanish "pintas"). The caller still checks the word is not a food.
 */
export function nearBuiltInUnit(word: string): string | null {
  const w = normaliseKey(word);
  if (w.length < 5 || !/^\p{L}+$/u.test(w) || isBuiltInUnit(w)) return null;
  if (!english) {
    const root = seedRoot();
    const keys = [...UNIT_LEXICON, ...(root ? seedUnitKeys(root, "en-US") : [])].map(normaliseKey);
    english = [...new Set(keys)].filter((k) => k.length >= 6 && /^\p{L}+$/u.test(k));
  }
  return english.find((k) => oneSlip(w, k)) ?? null;
}

/** Whether the letters of `short` appear in `long` in order: "grm" in "gram", "tb" in "tbs". */
function inOrder(short: string, long: string): boolean {
  let j = 0;
  for (let i = 0; i < long.length && j < short.length; i++) if (long[i] === short[j]) j++;
  return j === short.length;
}

/**
 * The unit a parser read, checked: a word that is a unit in its own right is never another unit the
 * vocabulary's likeness (ratio ≥ 70) puts in its place: "sachet" is no sheet, "cartons" no can,
 * "centimetre" no centiliter, "quarter" no quart, "tubs" no tablespoon, "mug" no milligram. Only an
 * abbreviation of 3 letters or fewer whose letters the unit's name or abbreviation holds in order
 * ("tb", "grm", "lt") keeps the likeness; any other such word stays as written.
 */
export function checkedUnit(
  written: string | null,
  matched: ParsedRef | null,
  match: VocabularyMatcher,
): ParsedRef | null {
  if (!written || !matched) return matched;
  const w = normaliseKey(written).replace(/\.$/, "");
  if (!isBuiltInUnit(w)) return matched;
  const single = singular(w);
  // An English unit the vocabulary lacks is named in the singular, as the nlp parser names it ("4
  // rashers" → rasher); another language's plural is left alone (English rules would mangle it).
  const english = UNIT_LEXICON.has(w) && /\p{L}{3,}s$/u.test(w) && single !== w;
  if (matched.id === undefined) return english ? { name: single } : matched;
  if (match.exactUnit(w) ?? match.exactUnit(single)) return matched;
  const unit = match.unit(w);
  const keys = unit
    ? [
        unit.name,
        unit.pluralName,
        unit.abbreviation,
        unit.pluralAbbreviation,
        ...(unit.aliases ?? []).map((a) => a.name),
      ]
    : [];
  if (w.length <= 3 && keys.some((k) => !!k && inOrder(w, normaliseKey(k)))) return matched;
  return { name: english ? single : w };
}
