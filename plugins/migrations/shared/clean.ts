/**
 * The cleaning every migration applies to the values it reads (mealie-api-notes §11 "Cleaner rules"):
 * strings without markup, ISO durations as words, tags title-cased, nutrition as bare numbers. The
 * readers produce a loose recipe object; `cleanRecipe` turns it into Mealie's wire shape.
 */
import { decodeHTML } from "entities";
import { NUTRITION_KEYS } from "../../../core/schemas/recipe-defaults.js";

export type Loose = Record<string, unknown>;

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === "string" && v.trim() === "");

/** clean_string: first of a list, numbers as text, entities decoded, tags stripped, spaces collapsed. */
export function cleanString(v: unknown): string {
  if (Array.isArray(v)) v = v[0];
  if (v === null || v === undefined) return "";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v !== "string") return "";
  let s = decodeHTML(v);
  s = s.replace(/<[^<]+?>/g, "");
  s = s.replace(/[\u00a0\t]/g, " ");
  s = s.replace(/ +/g, " ");
  s = s.replace(/\n\s*\n/g, "\n\n");
  return s.trim();
}

/** clean_string applied until it no longer changes (double-escaped HTML in step text). */
function cleanUntilStable(v: string): string {
  let prev = v;
  for (let i = 0; i < 5; i++) {
    const next = cleanString(prev);
    if (next === prev) break;
    prev = next;
  }
  return prev;
}

const UNITS: Array<[string, string, number]> = [
  ["year", "years", 365 * 86400],
  ["day", "days", 86400],
  ["hour", "hours", 3600],
  ["minute", "minutes", 60],
  ["second", "seconds", 1],
];

/** pretty_print_timedelta: "2 hours 30 minutes"; a zero duration is "none". */
export function prettySeconds(total: number): string {
  let left = Math.floor(total);
  const parts: string[] = [];
  for (const [one, many, size] of UNITS) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n >= 1) parts.push(`${n} ${n === 1 ? one : many}`);
  }
  return parts.length ? parts.join(" ") : "none";
}

const ISO = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.\d+)?S)?$/;

/**
 * clean_time: ISO-8601 durations (the `T` is required, as in Mealie) become words; other text is kept;
 * blank is null. With `minutes`, a bare number counts as minutes (CSV exports).
 */
export function cleanTime(v: unknown, opts: { minutes?: boolean } = {}): string | null {
  if (Array.isArray(v)) v = v[0];
  if (v && typeof v === "object" && "minValue" in v) return cleanTime((v as Loose).minValue, opts);
  if (typeof v === "number") {
    if (!Number.isFinite(v) || v <= 0) return null;
    return opts.minutes ? prettySeconds(v * 60) : String(v);
  }
  if (typeof v !== "string" || v.trim() === "") return null;
  const s = v.trim();
  if (opts.minutes && /^\d+(\.\d+)?$/.test(s)) return Number(s) > 0 ? prettySeconds(Number(s) * 60) : null;
  const m = ISO.exec(s);
  if (!m) return s;
  const [, , , d, h, min, sec] = m;
  return prettySeconds(
    Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(sec ?? 0),
  );
}

/** clean_yield (migrations): a list gives its last element. */
export function cleanYield(v: unknown): string {
  if (Array.isArray(v)) return v.length ? cleanString(v[v.length - 1]) : "";
  if (isBlank(v)) return "";
  return cleanString(v);
}

/** Python's str.title() as Mealie uses it, but an apostrophe does not start a word ("Shepherd's"). */
export function titleCase(s: string): string {
  return s
    .toLowerCase()
    .replace(
      /(^|[^\p{L}\p{N}'’])(\p{L})/gu,
      (_m, before: string, letter: string) => before + letter.toUpperCase(),
    );
}

/** clean_tags: a string is split on commas; each trimmed and title-cased; duplicates dropped. */
export function cleanTags(v: unknown): string[] {
  let list: unknown[];
  if (typeof v === "string") list = v.split(",");
  else if (Array.isArray(v)) list = v;
  else return [];
  const out: string[] = [];
  for (const item of list) {
    const raw =
      typeof item === "string" ? item : item && typeof item === "object" ? (item as Loose).name : null;
    if (typeof raw !== "string") continue;
    const t = titleCase(cleanString(raw));
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

/** clean_categories: a string is one category; a list of strings is title-cased; `{name}` gives its name. */
export function cleanCategories(v: unknown): string[] {
  if (typeof v === "string") return v.trim() ? [cleanString(v)] : [];
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    const t =
      typeof item === "string"
        ? titleCase(cleanString(item))
        : item && typeof item === "object"
          ? cleanString((item as Loose).name)
          : "";
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  }
  return out;
}

/** The nutrition keys of Mealie's model; anything else an export carries is dropped. */
export { NUTRITION_KEYS };

/** clean_nutrition: the first number of each value; sodium and cholesterol in grams become milligrams. */
export function cleanNutrition(v: unknown): Record<string, string> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(v as Loose)) {
    if (!(NUTRITION_KEYS as readonly string[]).includes(key)) continue;
    if (typeof raw !== "string" && typeof raw !== "number") continue;
    const text = String(raw);
    const m = /\d+([.,]\d+)?/.exec(text);
    if (!m) continue;
    let num = m[0].replace(",", ".");
    if (
      (key === "sodiumContent" || key === "cholesterolContent") &&
      text.includes("g") &&
      !text.includes("m")
    ) {
      num = (Number.parseFloat(num) * 1000).toFixed(1);
    }
    out[key] = num;
  }
  return out;
}

/** clean_ingredients: a string gives its non-empty lines; list items are cleaned. */
export function cleanIngredientLines(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === "string")
    return v
      .split(/\r?\n/)
      .map((l) => cleanString(l))
      .filter(Boolean);
  if (!Array.isArray(v)) return [];
  return v
    .map((i) =>
      typeof i === "string" ? cleanString(i) : cleanString((i as Loose)?.note ?? (i as Loose)?.text),
    )
    .filter(Boolean);
}

export interface Step {
  title: string;
  text: string;
}

/** clean_instructions: the shapes schema.org and exports use, flattened into steps. */
export function cleanInstructions(v: unknown): Step[] {
  if (v === null || v === undefined) return [];
  if (typeof v === "string") {
    const s = v.trim();
    if (s.startsWith("[") || s.startsWith("{")) {
      try {
        return cleanInstructions(JSON.parse(s));
      } catch {
        /* plain text that happens to start with a bracket */
      }
    }
    return s
      .split(/\r?\n/)
      .map((l) => cleanUntilStable(l))
      .filter(Boolean)
      .map((text) => ({ title: "", text }));
  }
  if (Array.isArray(v)) return v.flatMap((item) => stepsOf(item));
  if (typeof v === "object") {
    const o = v as Loose;
    if (isSection(o)) return cleanInstructions(o.itemListElement);
    const keys = Object.keys(o);
    if (keys.length && keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).flatMap((k) => stepsOf(o[k]));
    }
    return stepsOf(o);
  }
  return [];
}

function isSection(o: Loose): boolean {
  return o["@type"] === "HowToSection" || o.type === "HowToSection";
}

function stepsOf(item: unknown): Step[] {
  if (typeof item === "string") {
    const text = cleanUntilStable(item);
    return text ? [{ title: "", text }] : [];
  }
  if (Array.isArray(item)) return cleanInstructions(item);
  if (item && typeof item === "object") {
    const o = item as Loose;
    if (isSection(o)) {
      const inner = cleanInstructions(o.itemListElement);
      const name = cleanString(o.name);
      if (name && inner.length) inner[0] = { ...inner[0], title: name };
      return inner;
    }
    const text = cleanUntilStable(String(o.text ?? o.name ?? ""));
    return text ? [{ title: cleanString(o.title ?? ""), text }] : [];
  }
  return [];
}

/** clean_int: the digits of a value ("4 stars" → 4); null when there are none. */
export function cleanInt(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? Math.round(v) : null;
  if (typeof v !== "string") return null;
  const m = /\d+(\.\d+)?/.exec(v);
  return m ? Math.round(Number(m[0])) : null;
}

/** A date (or date-time) from an export as `YYYY-MM-DD`, or null when it is not one. */
export function cleanDate(v: unknown): string | null {
  if (typeof v !== "string" && typeof v !== "number") return null;
  const s = String(v).trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  return null;
}

/** What a reader hands to `cleanRecipe`: loose values straight from the export. */
export interface RawRecipe {
  name?: unknown;
  description?: unknown;
  recipeYield?: unknown;
  recipeServings?: unknown;
  ingredients?: unknown;
  /** Ingredients already in Mealie's shape (section titles, notes); wins over `ingredients`. */
  ingredientObjects?: Array<{ title?: string | null; note: string }>;
  instructions?: unknown;
  totalTime?: unknown;
  prepTime?: unknown;
  performTime?: unknown;
  /** Minutes, not ISO durations (CSV exports). */
  timesInMinutes?: boolean;
  tags?: unknown;
  categories?: unknown;
  tools?: unknown;
  nutrition?: unknown;
  orgURL?: unknown;
  notes?: unknown;
  dateAdded?: unknown;
  lastMade?: unknown;
  rating?: unknown;
  extras?: Loose;
}

/** A recipe in Mealie's wire shape, as `POST /recipes` accepts it, plus the rating the export gave. */
export interface CleanRecipe {
  name: string;
  description: string;
  recipeYield: string;
  recipeServings?: number;
  recipeIngredient: Array<{ title: string | null; note: string }>;
  recipeInstructions: Array<{ title: string; text: string }>;
  totalTime: string | null;
  prepTime: string | null;
  performTime: string | null;
  tags: Array<{ name: string }>;
  recipeCategory: Array<{ name: string }>;
  tools: Array<{ name: string }>;
  nutrition: Record<string, string>;
  orgURL: string | null;
  notes: Array<{ title: string; text: string }>;
  dateAdded?: string;
  lastMade?: string;
  rating?: number;
  extras?: Loose;
}

function cleanNotes(v: unknown): Array<{ title: string; text: string }> {
  if (typeof v === "string") return v.trim() ? [{ title: "", text: v.trim() }] : [];
  if (!Array.isArray(v)) return [];
  return v.flatMap((n) => {
    if (typeof n === "string") return n.trim() ? [{ title: "", text: n.trim() }] : [];
    if (n && typeof n === "object" && typeof (n as Loose).text === "string") {
      const text = String((n as Loose).text).trim();
      return text ? [{ title: cleanString((n as Loose).title ?? ""), text }] : [];
    }
    return [];
  });
}

export function cleanRecipe(raw: RawRecipe): CleanRecipe {
  const name = cleanString(raw.name) || "Untitled";
  const minutes = raw.timesInMinutes ?? false;
  const out: CleanRecipe = {
    name,
    description: cleanString(raw.description),
    recipeYield: cleanYield(raw.recipeYield),
    recipeIngredient: raw.ingredientObjects
      ? raw.ingredientObjects
          .filter((i) => i.note.trim() || i.title)
          .map((i) => ({ title: i.title ?? null, note: i.note.trim() }))
      : cleanIngredientLines(raw.ingredients).map((note) => ({ title: null, note })),
    recipeInstructions: cleanInstructions(raw.instructions),
    totalTime: cleanTime(raw.totalTime, { minutes }),
    prepTime: cleanTime(raw.prepTime, { minutes }),
    performTime: cleanTime(raw.performTime, { minutes }),
    tags: cleanTags(raw.tags).map((n) => ({ name: n })),
    recipeCategory: cleanCategories(raw.categories).map((n) => ({ name: n })),
    // Tools are kept as written: "KitchenAid mixer" should not become "Kitchenaid Mixer".
    tools: (Array.isArray(raw.tools) ? raw.tools : [])
      .map((t) => cleanString(typeof t === "string" ? t : (t as Loose)?.name))
      .filter((n, i, all) => n && all.indexOf(n) === i)
      .map((n) => ({ name: n })),
    nutrition: cleanNutrition(raw.nutrition),
    orgURL: cleanString(raw.orgURL) || null,
    notes: cleanNotes(raw.notes),
  };
  const servings =
    typeof raw.recipeServings === "number"
      ? raw.recipeServings
      : Number.parseFloat(String(raw.recipeServings ?? ""));
  if (Number.isFinite(servings) && servings > 0) out.recipeServings = servings;
  const added = cleanDate(raw.dateAdded);
  if (added) out.dateAdded = added;
  if (typeof raw.lastMade === "string") out.lastMade = raw.lastMade;
  const rating = cleanInt(raw.rating);
  if (rating !== null && rating > 0) out.rating = Math.min(rating, 5);
  if (raw.extras && Object.keys(raw.extras).length) out.extras = raw.extras;
  return out;
}
