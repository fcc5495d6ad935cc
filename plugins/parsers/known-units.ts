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
import { UNIT_LEXICON } from "./nlp/lexicon.js";

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

function load(): Set<string> {
  const out = new Set<string>([...UNIT_LEXICON, ...EXTRA].map(normaliseKey));
  const root = seedRoot();
  if (!root) return out;
  for (const locale of readdirSync(root)) {
    const file = join(root, locale, "units.json");
    if (!existsSync(file)) continue;
    for (const u of JSON.parse(readFileSync(file, "utf8")) as SeedUnit[]) {
      const aliases = (u.aliases ?? []).map((a) => (typeof a === "string" ? a : a.name));
      for (const key of [u.name, u.pluralName, u.abbreviation, u.pluralAbbreviation, ...aliases])
        if (key?.trim()) out.add(normaliseKey(key));
    }
  }
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
