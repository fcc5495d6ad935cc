/**
 * The ingredient line grammar (docs/recipe-format.md, "The ingredient line"):
 *
 *   [quantity] [unit] [food] [link][, note]  [<!-- original: text -->]
 *
 * Reading is deterministic (no model): the longest unit, then food name the group knows, in any case and
 * any of their forms. Writing emits the canonical form and checks that it reads back to the same
 * ingredient, falling back to a comma or a backslash escape when it would not.
 */
import type { DocIngredient, Vocabulary } from "../doc.js";
import { formatQuantityRange, matchQuantity, UNICODE_FRACTIONS } from "../quantity.js";
import { compileVocabulary, isSpace, matchTerm, type CompiledVocabulary } from "./vocabulary.js";

/** What an ingredient line says: a DocIngredient without its section title and original text. */
export interface LineStructure {
  quantity: number | null;
  quantityMax: number | null;
  unit: string | null;
  food: string | null;
  referencedRecipe: string | null;
  referencedRecipeName: string | null;
  note: string;
}

// ---- small text helpers ----

// Every line of every recipe goes through here at a cold start (decision 0167): the checks below look
// at characters rather than run a regular expression, and the replacements run only when the text
// holds what they replace.
const skipWs = (s: string, i: number): number => {
  while (i < s.length && isSpace(s[i])) i++;
  return i;
};
/** The end of `s`, whitespace or a comma at `i`. */
const atEndOrBreak = (s: string, i: number): boolean => i >= s.length || s[i] === "," || isSpace(s[i]);

/** `<!--` in free text is written `<\!--` (one more backslash each time), so only Larder's comment is one. */
const escapeComments = (s: string): string => (s.includes("!--") ? s.replace(/<(\\*)!--/g, "<\\$1!--") : s);
const unescapeComments = (s: string): string => (s.includes("<\\") ? s.replace(/<\\(\\*)!--/g, "<$1!--") : s);
const oneLine = (s: string): string =>
  s.includes("\n") || s.includes("\r") ? s.replace(/[\r\n]+/g, " ") : s;

const COMMENT_OPEN = "<!-- original: ";
const COMMENT_CLOSE = " -->";
// Letters, not the characters themselves, so that neither `<!--` nor `-->` can appear inside the comment.
const COMMENT_ESCAPES: Record<string, string> = {
  "\\": "\\\\",
  "<": "\\l",
  ">": "\\g",
  "\n": "\\n",
  "\r": "\\r",
};
const COMMENT_UNESCAPES: Record<string, string> = { l: "<", g: ">", n: "\n", r: "\r" };

function originalComment(text: string): string {
  return `${COMMENT_OPEN}${text.replace(/[\\<>\n\r]/g, (c) => COMMENT_ESCAPES[c])}${COMMENT_CLOSE}`;
}

/** Splits a trailing `<!-- original: ... -->` off a (trimmed) line. */
function splitOriginalComment(line: string): { text: string; original: string | null } {
  const at = line.lastIndexOf(COMMENT_OPEN);
  const ok =
    at >= 0 && line.endsWith(COMMENT_CLOSE) && at + COMMENT_OPEN.length <= line.length - COMMENT_CLOSE.length;
  if (!ok || (at > 0 && !/\s/.test(line[at - 1]))) {
    return { text: line, original: null };
  }
  const inner = line.slice(at + COMMENT_OPEN.length, line.length - COMMENT_CLOSE.length);
  if (!/^(?:[^\\<>]|\\[\s\S])*$/.test(inner)) return { text: line, original: null };
  const original = inner.replace(/\\([\s\S])/g, (_, c: string) => COMMENT_UNESCAPES[c] ?? c);
  return { text: line.slice(0, at).trimEnd(), original };
}

// ---- reading ----

const unitEndsOk = (s: string, end: number): boolean =>
  atEndOrBreak(s, end) || (s[end] === "." && atEndOrBreak(s, end + 1));
const foodEndsOk = atEndOrBreak;

const LINK = /\[((?:[^\]\\\n]|\\.)*)\]\(([^()\s]+)\.md\)/y;

interface Head {
  unit: string | null;
  food: string | null;
  link: { slug: string; name: string } | null;
  end: number;
}

function unitAt(s: string, at: number, cv: CompiledVocabulary): { name: string; end: number } | null {
  const m = matchTerm(cv.units, s, at, unitEndsOk);
  if (!m) return null;
  // An abbreviation's full stop ("tbsp.") belongs to the unit.
  const end = s[m.end] === "." ? m.end + 1 : m.end;
  return { name: m.item.name, end };
}

function linkAt(s: string, at: number): { slug: string; name: string; end: number } | null {
  LINK.lastIndex = at;
  const m = LINK.exec(s);
  if (!m || !foodEndsOk(s, at + m[0].length)) return null;
  return { slug: m[2], name: m[1].replace(/\\(.)/g, "$1"), end: at + m[0].length };
}

function foodOrLinkAt(s: string, at: number, cv: CompiledVocabulary): Omit<Head, "unit"> | null {
  const f = matchTerm(cv.foods, s, at, foodEndsOk);
  if (f) {
    const l = f.end < s.length && isSpace(s[f.end]) ? linkAt(s, skipWs(s, f.end)) : null;
    if (l) return { food: f.item.name, link: { slug: l.slug, name: l.name }, end: l.end };
    return { food: f.item.name, link: null, end: f.end };
  }
  const l = linkAt(s, at);
  return l ? { food: null, link: { slug: l.slug, name: l.name }, end: l.end } : null;
}

const OF = /of\s+/iy;

/** Unit, food and link after the quantity, preferring a reading that finds a food ("2 cloves" of a food "clove"). */
function readHead(s: string, at: number, cv: CompiledVocabulary): Head {
  const u = unitAt(s, at, cv);
  if (u) {
    const afterUnit = skipWs(s, u.end);
    OF.lastIndex = afterUnit;
    const of = OF.exec(s);
    const withOf = of ? foodOrLinkAt(s, afterUnit + of[0].length, cv) : null;
    const fA = withOf ?? foodOrLinkAt(s, afterUnit, cv);
    if (fA) return { unit: u.name, ...fA };
    const fB = foodOrLinkAt(s, at, cv);
    if (fB) return { unit: null, ...fB };
    return { unit: u.name, food: null, link: null, end: u.end };
  }
  const f = foodOrLinkAt(s, at, cv);
  return f ? { unit: null, ...f } : { unit: null, food: null, link: null, end: at };
}

const noteOnly = (note: string): LineStructure => ({
  quantity: null,
  quantityMax: null,
  unit: null,
  food: null,
  referencedRecipe: null,
  referencedRecipeName: null,
  note,
});

export function isNoteOnly(s: LineStructure): boolean {
  return s.quantity === null && s.unit === null && s.food === null && s.referencedRecipe === null;
}

/** Every form matchQuantity reads starts with a digit, a decimal point or a fraction character. */
function mayStartQuantity(s: string): boolean {
  const c = s.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 46 || (c > 127 && s[0] in UNICODE_FRACTIONS);
}

/** Reads unescaped line text; a line that does not fit the grammar is a note-only ingredient. */
function readStructure(s: string, cv: CompiledVocabulary): LineStructure {
  let quantity: number | null = null;
  let quantityMax: number | null = null;
  let at = 0;
  const q = mayStartQuantity(s) ? matchQuantity(s, 0) : null;
  if (q) {
    quantity = q.quantity;
    quantityMax = q.quantityMax;
    at = skipWs(s, q.end);
  } else {
    // "a pinch of salt": the article counts as 1 when a unit follows.
    const article = s[0] === "a" || s[0] === "A" ? /^an?\s+/i.exec(s) : null;
    if (article && unitAt(s, article[0].length, cv)) {
      quantity = 1;
      at = article[0].length;
    }
  }
  const head = readHead(s, at, cv);
  const rest = s.slice(head.end).trimStart();
  const explicitEnd = rest === "" || rest.startsWith(",");
  const found = head.unit !== null || head.food !== null || head.link !== null;
  // Without a quantity a line is structured only when unit/food take all of it up to a comma.
  if (quantity === null && (!found || !explicitEnd)) return noteOnly(unescapeComments(s));
  const note = rest.startsWith(",") ? rest.slice(1).trim() : rest.trim();
  return {
    quantity,
    quantityMax,
    unit: head.unit,
    food: head.food,
    referencedRecipe: head.link?.slug ?? null,
    referencedRecipeName: head.link?.name ?? null,
    note: unescapeComments(note),
  };
}

/** Reads line text that may carry the note-only escape (`\2 eggs from the neighbour`). */
function readLine(text: string, cv: CompiledVocabulary): LineStructure {
  if (!text.startsWith("\\")) return readStructure(text, cv);
  const core = text.replace(/^\\+/, "");
  // The backslash is an escape only when the text after it would otherwise read as structured.
  if (!isNoteOnly(readStructure(core, cv))) return noteOnly(unescapeComments(text.slice(1)));
  return noteOnly(unescapeComments(text));
}

// ---- writing ----

const linkName = (s: LineStructure): string => s.referencedRecipeName ?? s.referencedRecipe ?? "";

export function sameStructure(a: LineStructure, b: LineStructure): boolean {
  return (
    a.quantity === b.quantity &&
    a.quantityMax === b.quantityMax &&
    a.unit === b.unit &&
    a.food === b.food &&
    a.referencedRecipe === b.referencedRecipe &&
    (a.referencedRecipe === null || linkName(a) === linkName(b)) &&
    a.note === b.note
  );
}

function structuredCandidates(s: LineStructure, cv: CompiledVocabulary): string[] {
  const unit = s.unit ? cv.unit(s.unit) : null;
  const food = s.food ? cv.food(s.food) : null;
  const pluralQ = s.quantityMax ?? s.quantity ?? 0;
  const parts: string[] = [];
  if (s.quantity !== null)
    parts.push(formatQuantityRange(s.quantity, s.quantityMax, { fraction: unit?.fraction ?? true }));
  if (s.unit !== null) {
    const plural = pluralQ > 1;
    let text = s.unit;
    if (unit && unit.useAbbreviation && unit.abbreviation)
      text = (plural && unit.pluralAbbreviation) || unit.abbreviation;
    else if (unit) text = (plural && unit.pluralName) || unit.name;
    parts.push(text);
  }
  // Food plurals follow the display rule (mealie-api-notes §5.3): no quantity, or more than one.
  if (s.food !== null)
    parts.push((food && (!s.quantity || pluralQ > 1) ? food.pluralName : null) || food?.name || s.food);
  if (s.referencedRecipe !== null) {
    parts.push(`[${linkName(s).replace(/[\\[\]]/g, "\\$&")}](${s.referencedRecipe}.md)`);
  }
  const head = oneLine(parts.join(" "));
  const note = oneLine(escapeComments(s.note));
  if (!note) return [head];
  if (s.food !== null || s.referencedRecipe !== null) return [`${head}, ${note}`];
  return [`${head} ${note}`, `${head}, ${note}`];
}

/**
 * The canonical line text of a structure (no original-text comment). `readFrom`, the text `s` was just
 * read from, spares re-reading a candidate that is that very text.
 */
function canonicalText(s: LineStructure, cv: CompiledVocabulary, readFrom?: string): string {
  const readsBack = (text: string): boolean => text === readFrom || sameStructure(readLine(text, cv), s);
  if (isNoteOnly(s)) {
    const body = oneLine(escapeComments(s.note));
    return readsBack(body) ? body : `\\${body}`;
  }
  const candidates = structuredCandidates(s, cv);
  return candidates.find(readsBack) ?? candidates[0];
}

function structureOf(ing: DocIngredient): LineStructure {
  return {
    quantity: ing.quantity,
    quantityMax: ing.quantity === null ? null : ing.quantityMax,
    unit: ing.unit,
    food: ing.food,
    referencedRecipe: ing.referencedRecipe,
    referencedRecipeName: ing.referencedRecipe === null ? null : (ing.referencedRecipeName ?? null),
    note: ing.note,
  };
}

// ---- public API ----

/**
 * Reads one ingredient line (without its list marker). `originalText` is the line itself when it differs
 * from the canonical form of what it says, or the text of a trailing `<!-- original: ... -->` comment.
 */
export function parseIngredientLine(line: string, vocab: Vocabulary): DocIngredient {
  const cv = compileVocabulary(vocab);
  const { text, original } = splitOriginalComment(line.trim());
  const s = readLine(text, cv);
  const originalText = original ?? (text === canonicalText(s, cv, text) ? null : text);
  return { title: null, ...s, originalText };
}

/** The canonical line of an ingredient, ignoring its originalText. */
export function canonicalIngredientLine(ing: DocIngredient, vocab: Vocabulary): string {
  return canonicalText(structureOf(ing), compileVocabulary(vocab));
}

/**
 * Writes one ingredient line (without its list marker or section title). An originalText that reads
 * back to the same ingredient is written as the line; any other is kept in a trailing comment.
 */
export function formatIngredientLine(ing: DocIngredient, vocab: Vocabulary): string {
  const cv = compileVocabulary(vocab);
  const s = structureOf(ing);
  const canonical = canonicalText(s, cv);
  const ot = ing.originalText;
  if (ot === null) return canonical;
  if (!/[\r\n]/.test(ot)) {
    const back = parseIngredientLine(ot, vocab);
    if (back.originalText === ot && sameStructure(structureOf(back), s)) return ot;
  }
  return canonical === "" ? originalComment(ot) : `${canonical} ${originalComment(ot)}`;
}

/**
 * The originalText rule for ingredients coming from the API: an original text that says the same thing
 * with a range restores the range (the wire has no upper bound); one equal to the canonical line, or to
 * a note-only ingredient's note, carries nothing and is dropped.
 */
export function applyOriginalTextRule(ing: DocIngredient, vocab: Vocabulary): DocIngredient {
  const ot = ing.originalText;
  if (ot === null) return ing;
  const read = parseIngredientLine(ot, vocab);
  const sameButRange = sameStructure(
    structureOf({ ...read, quantityMax: null, referencedRecipeName: null }),
    {
      ...structureOf(ing),
      quantityMax: null,
      referencedRecipeName: null,
    },
  );
  const out = sameButRange && read.quantityMax !== null ? { ...ing, quantityMax: read.quantityMax } : ing;
  const s = structureOf(out);
  const cv = compileVocabulary(vocab);
  if (ot === canonicalText(s, cv) || (isNoteOnly(s) && ot === s.note)) return { ...out, originalText: null };
  return out;
}
