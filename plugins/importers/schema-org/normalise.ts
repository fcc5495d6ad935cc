/**
 * A schema.org Recipe as pages write it → clean fields (times in minutes, yields as "4 servings",
 * HTML stripped and entities decoded, sections flattened, the best image) → Mealie's wire recipe.
 * The rules follow what recipe-scrapers and Mealie's cleaner do, so a recipe imported here reads the
 * same as one imported by Mealie (../shared/fixtures/recipe-pages/SOURCE.md).
 */
import { parseDocument } from "htmlparser2";
import { NUTRITION_KEYS } from "../../../core/schemas/recipe-defaults.js";
import { textOf, type PageData, type SchemaObject } from "./extract.js";
import { cardName, dishImage, isStepsHeading, pageHeading, readDom, readFacts, type DomList } from "./dom.js";
import { isHeadingLine, pickIngredients, pickSteps, textKey, type Picked } from "./merge.js";
import { oneIngredientEach } from "./wrapped-lines.js";
import { servingsInWords } from "./word-yields.js";

export interface CleanRecipe {
  title: string | null;
  description: string | null;
  ingredients: string[];
  /** Ingredient group headings by position of the first ingredient of each group. */
  ingredientTitles: Map<number, string>;
  instructions: Step[];
  totalTime: number | null;
  prepTime: number | null;
  cookTime: number | null;
  yields: string | null;
  image: string | null;
  keywords: string[];
  categories: string[];
  cuisine: string | null;
  nutrition: Record<string, string>;
  url: string | null;
  source: PageData["source"];
  /** Where the lists came from: "schema", or the markup reader and the rule that chose it ("card/split"). */
  read: { ingredients: string; instructions: string };
}

const isObj = (v: unknown): v is SchemaObject => !!v && typeof v === "object" && !Array.isArray(v);
const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** Decode entities and strip tags, repeatedly for double-escaped text; `lines` keeps block breaks. */
export function cleanText(v: unknown, opts: { lines?: boolean } = {}): string {
  let s =
    typeof v === "string"
      ? v
      : typeof v === "number"
        ? String(v)
        : Array.isArray(v)
          ? cleanText(v[0], opts)
          : // A value object ({"@value": …}) or a thing written where its name was meant.
            isObj(v)
            ? cleanText(v["@value"] ?? v.name ?? v.text, opts)
            : "";
  for (let i = 0; i < 3 && /[<&]/.test(s); i++) {
    const doc = parseDocument(opts.lines ? s.replace(/<br\s*\/?>/gi, "\n") : s, { decodeEntities: true });
    const next = doc.children.map((c) => textOf(c)).join("");
    if (next === s) break;
    s = next;
  }
  // "Â" before a no-break space is that space encoded twice (UTF-8 read as Latin-1), a common scar.
  s = s
    .replace(/\u00c2(?=[\u00a0 ])/g, "")
    .replace(/[\u00a0\u2009\u202f\t]/g, " ")
    .replace(/[\u200b\u00ad\ufeff]/g, "");
  if (!opts.lines) return s.replace(/\s+/g, " ").trim();
  return s
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

function typesOf(o: SchemaObject): string[] {
  return asList(o["@type"] ?? o.type)
    .filter((t): t is string => typeof t === "string")
    .map((t) => t.replace(/^https?:\/\/schema\.org\//i, "").toLowerCase());
}

// ── Times ────────────────────────────────────────────────────────────────────────────────────

const ISO =
  /^P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/i;
const FRACTIONS: Record<string, number> = {
  "¼": 0.25,
  "½": 0.5,
  "¾": 0.75,
  "⅓": 1 / 3,
  "⅔": 2 / 3,
  "⅕": 0.2,
  "⅙": 1 / 6,
  "⅛": 0.125,
};

function num(s: string | undefined): number {
  return s ? Number(s.replace(",", ".")) || 0 : 0;
}

/**
 * The longest time a recipe is taken to state: a year (cured and fermented things take weeks). A page's
 * longer "time" is a broken value, such as the duration between two of its plugin's timestamps.
 */
const MAX_MINUTES = 365 * 1440;

/**
 * Whole minutes of a schema.org duration or a written time ("1 hour 30 mins", "10-15 minutes"); 0 → null.
 * So is a negative duration ("PT-476070H19M32S", seen on a real page) and one past MAX_MINUTES: the
 * recipe's other times then give its total.
 */
export function toMinutes(v: unknown): number | null {
  const minutes = anyMinutes(v);
  return minutes !== null && minutes <= MAX_MINUTES ? minutes : null;
}

function anyMinutes(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) && v > 0 ? Math.round(v) : null;
  if (Array.isArray(v)) return anyMinutes(v[0]);
  if (isObj(v)) return anyMinutes(v.maxValue ?? v.minValue ?? v.value ?? v["@value"]);
  let s = cleanText(v).trim();
  if (!s) return null;
  // A minus sign in an ISO duration (before or after its P) is a negative time.
  if (/^-?P[\d.,YMWDTHS]*-\d/i.test(s.replace(/\s+/g, "")) || /^-\s*P\d*T?\d/i.test(s)) return null;
  const iso = ISO.exec(s.replace(/\s+/g, ""));
  if (iso && /\d/.test(s)) {
    const [, y, mo, w, d, h, mi, sec] = iso;
    const minutes =
      num(y) * 525600 +
      num(mo) * 43200 +
      num(w) * 10080 +
      num(d) * 1440 +
      num(h) * 60 +
      num(mi) +
      num(sec) / 60;
    return minutes > 0 ? Math.round(minutes) : null;
  }
  if (/^\d+(?:[.,]\d+)?$/.test(s)) return anyMinutes(num(s));
  // "1:30", a clock's hours and minutes.
  const clock = /^(\d{1,2}):([0-5]\d)$/.exec(s);
  if (clock) return anyMinutes(num(clock[1]) * 60 + num(clock[2]));
  // "1h30", "1 Std. 15": minutes written after the hours without a unit of their own.
  s = s.replace(
    /(\d\s*(?:h(?:ours?|rs?|eures?)?|std\.?|stunden?|uur)\s*)(\d{1,2})(?![\d.,/]|\s*\p{L})/giu,
    "$1 $2 min",
  );
  // "1 1/2 hours", "1/2 hour": fractions written with a slash.
  s = s.replace(
    /(?:(\d{1,4})\s+)?(\d{1,4})\/(\d{1,4})/g,
    (_, whole: string | undefined, a: string, b: string) =>
      Number(b) ? String(num(whole) + Number(a) / Number(b)) : _,
  );
  // A range counts by its upper bound.
  s = s.replace(/(\d+(?:[.,]\d+)?)\s*(?:-|–|—|to|bis|à|a)\s*(\d+(?:[.,]\d+)?)/gi, "$2");
  for (const [f, val] of Object.entries(FRACTIONS))
    s = s.replace(new RegExp(`(\\d*)\\s*${f}`, "g"), (_, n: string) => String(num(n) + val));
  let total = 0;
  const re =
    /(\d+(?:[.,]\d+)?)\s*(d(?:ays?|ag(?:e|en)?)?|j(?:ours?)?|h(?:ours?|rs?|eures?|oras?|ours)?|std\.?|stunden?|uur|tim(?:mar|me|ar|er|e)?\b|godz(?:in[ya]?)?\.?|t\b|m(?:in(?:utes?|s|uten?|uti|utos|uter|utter|ut[ya]?)?)?\b|s(?:ec(?:onds?|s)?)?\b)/gi;
  let m: RegExpExecArray | null;
  let matched = false;
  while ((m = re.exec(s))) {
    matched = true;
    const n = num(m[1]);
    const unit = m[2].toLowerCase();
    if (/^(d|j)/.test(unit)) total += n * 1440;
    else if (/^(h|std|stun|uur|t|godz)/.test(unit)) total += n * 60;
    else if (/^s/.test(unit)) total += n / 60;
    else total += n;
  }
  if (!matched) return null;
  return total > 0 ? Math.round(total) : null;
}

/** Mealie's pretty time: "1 hour 30 minutes". */
export function formatMinutes(minutes: number | null): string | null {
  if (!minutes || minutes <= 0) return null;
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const part = (n: number, w: string) => (n ? `${n} ${w}${n === 1 ? "" : "s"}` : "");
  return [part(d, "day"), part(h, "hour"), part(m, "minute")].filter(Boolean).join(" ");
}

// ── Yields ───────────────────────────────────────────────────────────────────────────────────

const YIELD_TYPES: ReadonlyArray<[string, string]> = [
  ["dozen", "dozen"],
  ["batch", "batches"],
  ["cake", "cakes"],
  ["sandwich", "sandwiches"],
  ["bun", "buns"],
  ["cookie", "cookies"],
  ["muffin", "muffins"],
  ["cupcake", "cupcakes"],
  ["loaf", "loaves"],
  ["pie", "pies"],
  ["cup", "cups"],
  ["pint", "pints"],
  ["jar", "jars"],
  ["pizza", "pizzas"],
  ["roll", "rolls"],
  ["piece", "pieces"],
  ["tart", "tarts"],
  ["ball", "balls"],
  ["bowl", "bowls"],
  ["bar", "bars"],
  ["biscuit", "biscuits"],
  ["brownie", "brownies"],
  ["burger", "burgers"],
  ["cracker", "crackers"],
  ["doughnut", "doughnuts"],
  ["dumpling", "dumplings"],
  ["fillet", "fillets"],
  ["flatbread", "flatbreads"],
  ["glass", "glasses"],
  ["item", "items"],
  ["kebab", "kebabs"],
  ["macaron", "macarons"],
  ["pancake", "pancakes"],
  ["patty", "patties"],
  ["popsicle", "popsicles"],
  ["quart", "quarts"],
  ["scone", "scones"],
  ["skewer", "skewers"],
  ["slice", "slices"],
  ["square", "squares"],
  ["taco", "tacos"],
  ["truffle", "truffles"],
  ["waffle", "waffles"],
  ["wrap", "wraps"],
];

/** recipe-scrapers' yields: "4 servings", "1 serving", "12 cookies", "2 dozen"; a range keeps its upper number. */
export function toYields(v: unknown): string | null {
  const list = asList(v)
    .map((x) => (isObj(x) ? (x.value ?? x.maxValue ?? x.name) : x))
    .map((x) => cleanText(x))
    .filter(Boolean);
  if (list.length === 0) return null;
  // A list often holds "4" and "4 servings": the first with a unit says more.
  const text = list.find((x) => /\d/.test(x) && /[a-z]/i.test(x)) ?? list[0];
  const lower = text.toLowerCase();
  const ranged = lower.replace(/(\d+(?:[.,]\d+)?)\s*(?:-|–|—|to)\s*(\d+(?:[.,]\d+)?)/g, "$2");
  const m = /(\d+(?:[.,]\d+)?)/.exec(ranged);
  if (!m) return text;
  const n = m[1].replace(",", ".");
  const count = Number(n);
  if (/\bdozen\b/.test(lower)) return `${n} dozen`;
  const after = ranged.slice(m.index + m[1].length);
  for (const [singular, plural] of YIELD_TYPES) {
    if (singular === "dozen") continue;
    if (new RegExp(`^\\s*(?:\\S+\\s+){0,2}?(?:${singular}|${plural})\\b`).test(after))
      return `${n} ${count === 1 ? singular : plural}`;
  }
  return `${n} serving${count === 1 ? "" : "s"}`;
}

// ── Instructions and ingredients ─────────────────────────────────────────────────────────────

export interface Step {
  /** The heading of the section this step opens (HowToSection's name), shown above it. */
  title: string | null;
  /** The step's own name when it says something its text does not (Mealie's step summary). */
  summary: string | null;
  text: string;
}

/** "Step 1", "stap 2", "Schritt 3", "1." — a step's number, not a name. */
const STEP_LABEL = /^[\p{L} ]{0,12}\d+[.:)]?$/u;

/**
 * Steps without a first one that is only the heading of the block they came in ("Modo de Preparo", a
 * microdata property's <h3>): the recipe page heads its steps itself. A heading with steps of its own
 * under it (a section's title) is a step's title, not a step, and is not touched here.
 */
function withoutStepsHeading(steps: Step[]): Step[] {
  return steps.length > 1 && !steps[0].title && isStepsHeading(steps[0].text) ? steps.slice(1) : steps;
}

/**
 * One line holding every step after its number ("1. Heat the oven. 2. Rub in the butter. 3. Bake."):
 * a step each, cut where the next number follows the end of a sentence. Numbers out of order are
 * the text's own ("Bake at 180. 4 eggs…"), and the line stays whole.
 */
function numberedParts(line: string): string[] {
  if (!/^1[.)]\s/.test(line)) return [line];
  const parts: string[] = [];
  let start = 0;
  for (let n = 2; ; n++) {
    const next = new RegExp(`(?<=[.!?)]\\s+)${n}[.)]\\s`).exec(line.slice(start + 2));
    if (!next) break;
    const at = start + 2 + next.index;
    parts.push(line.slice(start, at).trim());
    start = at;
  }
  if (parts.length === 0) return [line];
  parts.push(line.slice(start).trim());
  return parts;
}

/** Steps flattened from strings, HowToStep, HowToSection and ItemList; blanks dropped. */
export function toSteps(v: unknown, depth = 0): Step[] {
  if (depth > 8 || v === null || v === undefined) return [];
  const plain = (text: string): Step => ({ title: null, summary: null, text });
  if (typeof v === "string") {
    const t = v.trim();
    if ((t.startsWith("[") || t.startsWith("{")) && depth < 2) {
      try {
        return toSteps(JSON.parse(t), depth + 1);
      } catch {
        // a string that only looks like JSON
      }
    }
    const lines = cleanText(v, { lines: true }).split("\n").filter(Boolean);
    return (lines.length === 1 ? numberedParts(lines[0]) : lines).map(plain);
  }
  if (Array.isArray(v)) return v.flatMap((x) => toSteps(x, depth + 1));
  if (!isObj(v)) return [];
  const types = typesOf(v);
  // An ItemList's entries are ListItems holding the step (or its text) under `item`.
  if (v.item !== undefined && !v.text && types.includes("listitem")) return toSteps(v.item, depth + 1);
  if (types.includes("howtosection") || (v.itemListElement !== undefined && !v.text)) {
    // A section's name is a heading worth keeping: the title of its first step. A section within a
    // section keeps both names, the outer first ("Crumble – Topping"), unless the outer only says
    // that steps follow. Some sites put a section's steps under `steps`. A HowToStep written as
    // HowToDirections and HowToTips (no `text`) is read the same way, a step each, its name their
    // heading: tests/api/import-markup-variety.test.ts pins that.
    const heading = cleanText(v.name ?? "");
    const steps = toSteps(v.itemListElement ?? v.steps, depth + 1);
    const inner = steps[0]?.title;
    if (heading && steps.length && (!inner || !isStepsHeading(heading)))
      steps[0] = { ...steps[0], title: inner ? `${heading} – ${inner}` : heading };
    return steps;
  }
  // One step object holding several: its text a list of texts, or an HTML list of them.
  if (Array.isArray(v.text) || (typeof v.text === "string" && /<li\b|&lt;li\b/i.test(v.text)))
    return toSteps(v.text, depth + 1);
  const text = cleanText(v.text ?? v.description ?? "");
  const name = cleanText(v.name ?? "");
  if (!text) return name ? [plain(name)] : [];
  // A step's name is often "Step 1" or its own text cut short ("Preheat the oven to…"); only a name
  // that says something else is kept.
  const stem = name
    .replace(/(\.{2,}|…)$/, "")
    .replace(/\.$/, "")
    .trim();
  const meaningful = stem && !/(\.{3}|…)$/.test(name) && !STEP_LABEL.test(name) && !text.startsWith(stem);
  return [{ title: null, summary: meaningful ? name : null, text }];
}

/** The steps as recipe-scrapers lists them: a section heading is an item of its own. */
export function stepLines(steps: readonly Step[]): string[] {
  return steps.flatMap((s) => [s.title, s.summary, s.text].filter((x): x is string => !!x));
}

/** Markup that breaks lines: an item written as HTML with one of these holds several ingredients. */
const LINE_MARKUP = /<(?:br|p|li|div)\b/i;

function toIngredients(v: unknown): string[] {
  if (typeof v === "string")
    return cleanText(v, { lines: true }).split("\n").map(tidyIngredient).filter(Boolean);
  return (
    asList(v)
      .flat(4)
      // A number or a boolean among the lines is a stray value, not an ingredient.
      .flatMap((x) => (isObj(x) ? [supplyLine(x)] : typeof x === "string" ? [x] : []))
      .flatMap((x) =>
        typeof x === "string" && LINE_MARKUP.test(x) ? cleanText(x, { lines: true }).split("\n") : linesOf(x),
      )
      .map(tidyIngredient)
      .filter(Boolean)
  );
}

/**
 * An ingredient written as an object: its text, or a HowToSupply's amount before its name
 * (`requiredQuantity` 200 "g" and "flour" are "200 g flour").
 */
function supplyLine(x: SchemaObject): unknown {
  const text = x.text ?? x.name ?? "";
  const q = x.requiredQuantity;
  if (q === undefined || x.text !== undefined || typeof text !== "string") return text;
  const amount = isObj(q)
    ? [q.value ?? q["@value"], q.unitText ?? q.unitCode]
        .filter((p) => typeof p === "string" || typeof p === "number")
        .join(" ")
    : typeof q === "string" || typeof q === "number"
      ? String(q)
      : "";
  return amount ? `${amount} ${text}` : text;
}

/**
 * An item's text as its lines when it is several ingredients written one a line, else as one line: a
 * line break inside one ingredient is the page's wrapping.
 */
function linesOf(v: unknown): string[] {
  const lines = cleanText(v, { lines: true }).split("\n");
  return oneIngredientEach(lines) ? lines : [cleanText(v)];
}

/** A list's bullet written into the text ("- 300 g d'emmental", "• 2 eggs"). */
const INGREDIENT_BULLET = /^(?:[-–—•·▪●◦‣∙*]\s+|[•·▪●◦‣∙✓✔☐☑□▢■◻◼]\s*)/u;

/**
 * Recipe plugins that wrap a note in their own brackets write "((packed))": one pair is enough. A bullet
 * written into the text goes, and so does a zero where a site's form had no amount ("0 As required salt").
 */
function tidyIngredient(s: string): string {
  return s
    .replace(/\(\(([^()]*)\)\)/g, "($1)")
    .trim()
    .replace(INGREDIENT_BULLET, "")
    .trim()
    .replace(/^0\s+(?=\p{L})/u, "");
}

// ── Images ───────────────────────────────────────────────────────────────────────────────────

interface ImageCandidate {
  url: string;
  area: number;
  rank: number;
  pos: number;
}

const ICONISH = /(favicon|apple-touch-icon|\bicon\b|[-_/]icons?[-_./]|\blogo\b|[-_/]logos?[-_./]|sprite)/i;

/**
 * An image URL made absolute. One that already is keeps its text as the page wrote it: re-serialising
 * would percent-encode its non-ASCII letters ("Jalapeño" → "Jalapen%CC%83o"), and the URL shown and
 * stored should be the page's (recipe-scrapers keeps it too); fetching encodes it anyway.
 */
function absolute(url: string, base: string | null): string | null {
  const u = url.trim();
  if (!u || u.startsWith("data:")) return null;
  try {
    const resolved = new URL(u, base ?? undefined);
    return /^https?:\/\/[^\s]+$/i.test(u) ? u : resolved.href;
  } catch {
    return null;
  }
}

function sizeFromUrl(url: string): number {
  const m = /(\d{2,5})x(\d{2,5})(?=[^/]*$)/i.exec(url);
  if (m) return Number(m[1]) * Number(m[2]);
  try {
    const q = new URL(url).searchParams;
    const w = Number(q.get("w") ?? q.get("width") ?? 0);
    const h = Number(q.get("h") ?? q.get("height") ?? 0);
    if (w && h) return w * h;
    if (w || h) return (w || h) ** 2;
  } catch {
    // not a URL
  }
  return 0;
}

/** The dish's picture in the page's markup (dom.ts `dishImage`), made absolute; not an icon. */
function contentImage(page: PageData, base: string | null): string | null {
  const src = dishImage(page.document);
  const abs = src ? absolute(src, base) : null;
  return abs && /^https?:/i.test(abs) && !ICONISH.test(abs) ? abs : null;
}

/**
 * An ImageObject's `@id` as its address: some pages name the image by its URL. One with a fragment
 * ("…/recipe/#primaryimage") is a reference into a graph that does not hold it, and names the page.
 */
function imageId(id: unknown): unknown {
  return typeof id === "string" && !id.includes("#") ? id : undefined;
}

/** A width or height as pages give it: 1200, "1200", "1200px", or a QuantitativeValue of 1200. */
function dimension(v: unknown): number {
  const n = parseFloat(String(isObj(v) ? (v.value ?? v["@value"]) : v));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The largest non-icon image among the schema's and the page's meta images (BestImagePlugin's rules). */
export function bestImage(schemaImage: unknown, page: PageData, base: string | null): string | null {
  const candidates: ImageCandidate[] = [];
  let pos = 0;
  const push = (url: unknown, rank: number, w?: unknown, h?: unknown) => {
    if (typeof url !== "string") return;
    const abs = absolute(url, base);
    if (!abs || !/^https?:/i.test(abs) || ICONISH.test(abs)) return;
    const width = dimension(w);
    const height = dimension(h);
    const area = width && height ? width * height : sizeFromUrl(abs);
    candidates.push({ url: abs, area, rank, pos: pos++ });
  };
  const fromSchema = (v: unknown, rank: number) => {
    for (const x of asList(v)) {
      if (typeof x === "string") push(x, rank);
      // An ImageObject may list its addresses (one picture, several copies).
      else if (isObj(x))
        for (const u of asList(x.url ?? x.contentUrl ?? imageId(x["@id"]))) push(u, rank, x.width, x.height);
    }
  };
  const primary = asList(schemaImage)[0];
  fromSchema(primary, 3);
  fromSchema(schemaImage, 2);
  const metaW = page.meta.get("og:image:width")?.[0];
  const metaH = page.meta.get("og:image:height")?.[0];
  for (const key of ["og:image", "og:image:url", "og:image:secure_url"])
    for (const v of page.meta.get(key) ?? []) push(v, 1, metaW, metaH);
  for (const key of ["twitter:image", "twitter:image:src"])
    for (const v of page.meta.get(key) ?? []) push(v, 1);
  if (candidates.length === 0) return null;
  candidates.sort(
    (a, b) =>
      b.area - a.area ||
      b.rank - a.rank ||
      Number(b.url.startsWith("https:")) - Number(a.url.startsWith("https:")) ||
      a.pos - b.pos,
  );
  return candidates[0].url;
}

// ── Organizers and nutrition ─────────────────────────────────────────────────────────────────

/** Python's str.title(), as Mealie's clean_tags applies it. */
export function titleCase(s: string): string {
  return s
    .toLowerCase()
    .replace(/(^|[^\p{L}])(\p{L})/gu, (_, pre: string, c: string) => pre + c.toUpperCase());
}

function toKeywords(v: unknown): string[] {
  const raw = asList(v).flatMap((x) =>
    typeof x === "string" ? x.split(",") : isObj(x) && typeof x.name === "string" ? [x.name] : [],
  );
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of raw.map((x) => cleanText(x)).filter(Boolean)) {
    const t = titleCase(k);
    if (seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

/** Mealie's clean_nutrition: the first number of each value; sodium and cholesterol given in grams become mg. */
function toNutrition(given: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  // Some pages wrap the one NutritionInformation in a list.
  const v = asList(given).find(isObj);
  if (!v) return out;
  for (const k of NUTRITION_KEYS) {
    const raw = v[k];
    if (typeof raw !== "string" && typeof raw !== "number") continue;
    const text = String(raw);
    const m = /\d+([.,]\d+)?/.exec(text);
    if (!m) continue;
    let n = m[0].replace(",", ".");
    if ((k === "sodiumContent" || k === "cholesterolContent") && /g/i.test(text) && !/m/i.test(text))
      n = String(Number(n) * 1000);
    out[k] = n;
  }
  return out;
}

// ── The recipe ───────────────────────────────────────────────────────────────────────────────

/** The address the page's relative addresses resolve against: its `<base href>`, itself resolved. */
function baseOf(page: PageData, pageUrl: string | null): string | null {
  if (!page.baseHref) return pageUrl;
  try {
    const base = new URL(page.baseHref, pageUrl ?? undefined);
    return /^https?:$/.test(base.protocol) ? base.href : pageUrl;
  } catch {
    return pageUrl;
  }
}

export function cleanRecipe(page: PageData, pageUrl: string | null): CleanRecipe | null {
  const r = page.recipe;
  const base = baseOf(page, pageUrl);
  const dom = readDom(page.document);
  if (r) {
    const given = {
      prep: toMinutes(r.prepTime),
      cook: toMinutes(r.cookTime ?? r.performTime),
      total: toMinutes(r.totalTime),
    };
    // Times the schema does not give at all are read from the page, as it shows them.
    const { prep, cook, total } =
      (given.prep ?? given.cook ?? given.total) ? withTotal(given) : domTimes(page);
    const { ingredients, titles } = ingredientsWithGroups(r);
    // The schema's lists, unless the page's markup shows them whole where the schema does not (merge.ts).
    const picked = pickIngredients({ items: ingredients, titles }, cleanDom(dom.ingredients, false));
    // The markup's list comes with its own groups; the schema's may hold them as lines.
    const ing =
      picked.rule === null ? { ...picked, ...withHeadingLines(picked.items, picked.titles) } : picked;
    const schemaSteps = withoutStepsHeading(toSteps(r.recipeInstructions ?? r.instructions ?? r.step));
    const steps = pickSteps(
      schemaSteps.map((st) => st.text),
      cleanDom(dom.instructions, true),
    );
    return {
      // A recipe the schema leaves unnamed is named as the page names it (its OpenGraph title, its
      // heading or its <title>), never imported with an empty name.
      title:
        withoutSiteName(cleanText(r.name ?? r.headline), page, pageUrl) ||
        pageTitle(page, pageUrl, true) ||
        null,
      description: cleanText(r.description) || null,
      ingredients: ing.items,
      ingredientTitles: ing.titles,
      instructions: steps.rule ? stepsOf(steps) : schemaSteps,
      totalTime: total,
      prepTime: prep,
      cookTime: cook,
      yields: toYields(r.recipeYield ?? r.yield) ?? toYields(readFacts(page.document).yields),
      image: bestImage(r.image ?? r.thumbnailUrl, page, base) ?? contentImage(page, base),
      keywords: toKeywords(r.keywords),
      categories: toKeywords(r.recipeCategory),
      cuisine: cleanText(r.recipeCuisine) || null,
      nutrition: toNutrition(r.nutrition),
      url: pageUrl ?? (typeof r.url === "string" ? r.url : null),
      source: page.source,
      read: {
        ingredients: ing.rule ? `${dom.ingredients?.via}/${ing.rule}` : "schema",
        instructions: steps.rule ? `${dom.instructions?.via}/${steps.rule}` : "schema",
      },
    };
  }
  // No schema.org Recipe: what the markup shows, under the page's title; else OpenGraph, as Mealie does.
  const ingredients = cleanDom(dom.ingredients, false);
  const instructions = cleanDom(dom.instructions, true);
  const both = !!ingredients && !!instructions;
  const title = pageTitle(page, pageUrl, both);
  if (!title) return null;
  const ing = ingredients ? pickIngredients({ items: [], titles: new Map() }, ingredients) : null;
  return {
    title,
    description: cleanText(page.meta.get("og:description")?.[0] ?? page.meta.get("description")?.[0]) || null,
    ingredients: ing ? ing.items : ["Could not detect ingredients"],
    ingredientTitles: ing ? ing.titles : new Map(),
    instructions: instructions
      ? stepsOf(pickSteps([], instructions))
      : [{ title: null, summary: null, text: "Could not detect instructions" }],
    ...(ingredients || instructions ? pageTimesAndYields(page) : NO_TIMES),
    image: bestImage(null, page, base) ?? contentImage(page, base),
    keywords: toKeywords(page.meta.get("article:tag") ?? page.meta.get("og:article:tag") ?? []),
    categories: [],
    cuisine: null,
    nutrition: {},
    url: pageUrl ?? page.meta.get("og:url")?.[0] ?? null,
    source: ingredients || instructions ? "html" : "opengraph",
    read: {
      ingredients: ingredients ? `${ingredients.via}/missing` : "none",
      instructions: instructions ? `${instructions.via}/missing` : "none",
    },
  };
}

// ── Titles ───────────────────────────────────────────────────────────────────────────────────

/** " | ", " - ", " – ", " — ", " │ ", " · ", " :: " between a title and the name of its site. */
const TITLE_SEPARATOR = /\s+(?:[|│•·–—-]|::)\s+|\s*[|│]\s*/gu;

/** A rating a page's title closes with: "- (4.8/5)", "(9/10)". */
const TITLE_RATING = /\s*[-–—|:]?\s*\(\s*\d+(?:[.,]\d+)?\s*\/\s*(?:5|10)\s*\)\s*$/u;

/**
 * A title without the site's name added after it ("Fresca Street Tacos | Choose Homemade"): the part
 * from the separator on goes when it names the site — `og:site_name`, or the host the page is on
 * ("Kelly's Clean Kitchen" on kellyscleankitchen.com, "Mindmegette.hu"). A closing rating goes too
 * ("Tartlets Recipe - (4.8/5)", a page's <title> read as the recipe's name); a closing "Recipe" stays,
 * as the many recipes named so by their authors keep it in Mealie.
 */
export function withoutSiteName(given: string, page: PageData, pageUrl: string | null): string {
  const title = given.replace(TITLE_RATING, "") || given;
  if (!title) return title;
  const names = [page.meta.get("og:site_name")?.[0] ?? "", hostName(page, pageUrl)]
    .map(textKey)
    .filter((k) => k.length >= 3);
  if (names.length === 0) return title;
  const cuts = [...title.matchAll(TITLE_SEPARATOR)];
  for (const cut of cuts) {
    const before = title.slice(0, cut.index).trim();
    const parts = title
      .slice(cut.index + cut[0].length)
      .split(TITLE_SEPARATOR)
      .map(textKey)
      .filter(Boolean);
    // The whole name, or (six letters at least) its start: "Mindmegette.hu" on mindmegette.hu.
    const isSite = (k: string) =>
      names.some((n) => k === n || (k.length >= 6 && (n.startsWith(k) || k.startsWith(n))));
    if (before && parts.length && isSite(parts[0])) return before;
  }
  return title;
}

/** The site's own name from the page's address: "www.kellyscleankitchen.com" → "kellyscleankitchen". */
function hostName(page: PageData, pageUrl: string | null): string {
  for (const u of [page.canonical, page.meta.get("og:url")?.[0], pageUrl]) {
    if (!u) continue;
    try {
      const host = new URL(u).hostname;
      if (/^[\d.]+$|^localhost$|^\[/.test(host)) continue;
      const labels = host.replace(/^www\d?\./, "").split(".");
      return labels.length > 1 ? labels.slice(0, -1).join(".") : labels[0];
    } catch {
      // not an address
    }
  }
  return "";
}

/**
 * A page without schema.org: its own heading when its OpenGraph title is that heading with more added
 * ("KNAPPERIGE … (NAM YUE) │ AMAZING ORIENTAL"), else the OpenGraph title without the site's name; the
 * recipe card's name, the heading or `<title>` only when the markup holds a whole recipe.
 */
function pageTitle(page: PageData, pageUrl: string | null, wholeRecipe: boolean): string {
  const og = cleanText(page.meta.get("og:title")?.[0]);
  const h1 = cleanText(pageHeading(page.document) ?? "");
  if (og && h1 && textKey(h1).length >= 3 && textKey(og).startsWith(textKey(h1))) return h1;
  if (og) return withoutSiteName(og, page, pageUrl);
  if (!wholeRecipe) return "";
  const card = cleanText(cardName(page.document) ?? "");
  return card || h1 || withoutSiteName(cleanText(page.title ?? ""), page, pageUrl);
}

// ── Times and yields from the page ───────────────────────────────────────────────────────────

type Times = { prep: number | null; cook: number | null; total: number | null };

/** A missing total is prep + cook (recipe-scrapers). */
function withTotal(t: Times): Times {
  const total = t.total ?? (t.prep || t.cook ? (t.prep ?? 0) + (t.cook ?? 0) : null);
  return { ...t, total };
}

function domTimes(page: PageData): Times {
  const f = readFacts(page.document);
  return withTotal({
    prep: toMinutes(f.prepTime),
    cook: toMinutes(f.cookTime),
    total: toMinutes(f.totalTime),
  });
}

const NO_TIMES = { totalTime: null, prepTime: null, cookTime: null, yields: null };

function pageTimesAndYields(
  page: PageData,
): Pick<CleanRecipe, "totalTime" | "prepTime" | "cookTime" | "yields"> {
  const t = domTimes(page);
  return {
    totalTime: t.total,
    prepTime: t.prep,
    cookTime: t.cook,
    yields: toYields(readFacts(page.document).yields),
  };
}

/** A step's label the page prints before its text: "Step 3", "Schritt 3:", "Étape 3 -" (see STEP_LABEL). */
const STEP_PREFIX =
  /^(?:step|schritt|étape|etape|paso|passo|stap|steg|krok|trin|vaihe|lépés)\s*\d+\s*[.:)\-–—]?\s+(?=\S)/iu;

/**
 * A page's steps without the labels its markup numbers them with: "Step 1 Preheat…" (the label in an
 * element of its own, read as part of the text) becomes "Preheat…". A bare number is a label only when
 * every step of the group starts with its own, 1, 2, 3…: "2 eggs, beaten, go in last" stays as written.
 */
function withoutStepLabels(items: string[]): string[] {
  const labelled = items.map((x) => x.replace(STEP_PREFIX, ""));
  const numbers = labelled.map((x) => /^(\d+)\s*[.:)\-–—]?\s+(?=\S)/u.exec(x));
  if (labelled.length < 2 || !numbers.every((m, i) => m && Number(m[1]) === i + 1)) return labelled;
  return labelled.map((x, i) => x.slice(numbers[i]![0].length));
}

/** A markup list with its texts cleaned as the schema's are; null when nothing is left. */
function cleanDom(list: DomList | null, steps: boolean): DomList | null {
  if (!list) return null;
  const groups = list.groups
    .map((g) => ({
      title: g.title ? cleanText(g.title) || null : null,
      items: steps
        ? withoutStepLabels(g.items.map((x) => cleanText(x)).filter(Boolean))
        : g.items.map((x) => tidyIngredient(cleanText(x))).filter(Boolean),
    }))
    .filter((g) => g.items.length);
  return groups.length ? { ...list, groups } : null;
}

/** Steps from picked texts: a group's heading is the title of its first step. */
function stepsOf(p: Picked): Step[] {
  return p.items.map((text, i) => ({ title: p.titles.get(i) ?? null, summary: null, text }));
}

/** Ingredients, with HowToSection-like groups flattened and their names kept as headings. */
function ingredientsWithGroups(r: SchemaObject): { ingredients: string[]; titles: Map<number, string> } {
  const raw = r.recipeIngredient ?? r.ingredients;
  const titles = new Map<number, string>();
  const out: string[] = [];
  // One string holds every ingredient, a line each; a list holds one per item, or a list per group.
  if (typeof raw === "string") return { ingredients: toIngredients(raw), titles };
  for (const item of asList(raw)) {
    if (isObj(item) && (item.itemListElement !== undefined || typesOf(item).includes("howtosection"))) {
      const name = cleanText(item.name);
      const lines = toIngredients(item.itemListElement);
      if (name && lines.length) titles.set(out.length, name);
      out.push(...lines);
    } else out.push(...toIngredients(Array.isArray(item) ? item : [item]));
  }
  return { ingredients: out, titles };
}

/**
 * Ingredients without the group headings a schema lists among them: each is the title of the line
 * after it, as a HowToSection's name is. Kept as a line, it went to the shopping list as an item.
 */
function withHeadingLines(
  lines: string[],
  titles: Map<number, string>,
): { items: string[]; titles: Map<number, string> } {
  if (!lines.some(isHeadingLine)) return { items: lines, titles };
  const out: string[] = [];
  const placed = new Map<number, string>();
  let pending: string | null = null;
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (isHeadingLine(line) && next !== undefined && !isHeadingLine(next)) {
      pending = line.replace(/\s*:$/, "");
      return;
    }
    const title = pending ?? titles.get(i);
    if (title) placed.set(out.length, title);
    pending = null;
    out.push(line);
  });
  return { items: out, titles: placed };
}

/**
 * The number of servings a yield counts: "4 servings" as `toYields` writes digits, or a yield in words
 * ("Serves four"), which keeps its text and gives only this number. A count of things ("12 cookies")
 * gives none: Mealie shows `recipeYieldQuantity` before the yield text, and "12 Makes a dozen
 * cookies" would read worse than the text alone.
 */
export function servingsOf(yields: string | null): number | null {
  if (!yields) return null;
  const digits = /^(\d+(?:\.\d+)?) servings?$/.exec(yields);
  return digits ? Number(digits[1]) : servingsInWords(yields);
}

/** The clean recipe in Mealie's wire shape, for `larder.imports.createRecipe`. */
export function toWireRecipe(
  c: CleanRecipe,
  opts: { includeTags?: boolean; includeCategories?: boolean; orgURL?: string | null },
): Record<string, unknown> {
  const servings = servingsOf(c.yields);
  return {
    name: c.title ?? "",
    description: c.description ?? "",
    recipeYield: c.yields,
    ...(servings !== null ? { recipeServings: servings } : {}),
    totalTime: formatMinutes(c.totalTime),
    prepTime: formatMinutes(c.prepTime),
    performTime: formatMinutes(c.cookTime),
    recipeIngredient: c.ingredients.map((note, i) => ({ note, title: c.ingredientTitles.get(i) ?? null })),
    recipeInstructions: c.instructions.map((s) => ({
      text: s.text,
      title: s.title ?? "",
      summary: s.summary ?? "",
    })),
    tags: opts.includeTags ? c.keywords : [],
    recipeCategory: opts.includeCategories ? c.categories : [],
    nutrition: c.nutrition,
    orgURL: opts.orgURL ?? c.url ?? null,
  };
}

/** What test-scrape-url answers: the schema.org data as found, with the cleaned fields beside it. */
export function schemaView(page: PageData, c: CleanRecipe): Record<string, unknown> {
  return {
    ...(page.recipe ?? {}),
    "@type": page.recipe?.["@type"] ?? "Recipe",
    name: c.title,
    description: c.description,
    recipeIngredient: c.ingredients,
    recipeInstructions: c.instructions.map((s) => ({
      "@type": "HowToStep",
      text: s.text,
      ...(s.title ? { name: s.title } : {}),
    })),
    totalTime: c.totalTime !== null ? `PT${c.totalTime}M` : null,
    prepTime: c.prepTime !== null ? `PT${c.prepTime}M` : null,
    cookTime: c.cookTime !== null ? `PT${c.cookTime}M` : null,
    recipeYield: c.yields,
    image: c.image,
    keywords: c.keywords,
    url: c.url,
  };
}
