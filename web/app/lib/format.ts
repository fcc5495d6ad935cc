/** Small display helpers shared by cards, the recipe page and its structured data (no core imports). */

/** Spec §9: chips show at most 20 characters, then '...'. */
export function truncateChip(text: string, max = 20): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Recipe image URLs served by /api/media; `cacheKey` is the recipe's `image` field (changes on upload). */
export type ImageSize = "original" | "min-original" | "tiny-original";
export function recipeImageUrl(recipeId: string, size: ImageSize, cacheKey?: string | null): string {
  const base = `/api/media/recipes/${encodeURIComponent(recipeId)}/images/${size}.webp`;
  return cacheKey ? `${base}?v=${encodeURIComponent(cacheKey)}` : base;
}

const UNIT_WORDS: [RegExp, "H" | "M" | "S" | "D"][] = [
  [/^(d|day|days)$/, "D"],
  [/^(h|hr|hrs|hour|hours|std|stunde|stunden)$/, "H"],
  [/^(m|min|mins|minute|minutes|minuten)$/, "M"],
  [/^(s|sec|secs|second|seconds)$/, "S"],
];

/**
 * A free-text time ("1 hour 30 minutes", "45 min", "PT20M") as an ISO 8601 duration for schema.org,
 * or null when it cannot be read with confidence.
 */
export function toIsoDuration(text: string | null | undefined): string | null {
  if (!text) return null;
  const t = text.trim();
  if (/^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/i.test(t)) return t.toUpperCase();
  const parts: Record<"D" | "H" | "M" | "S", number> = { D: 0, H: 0, M: 0, S: 0 };
  let matched = false;
  const rest = t
    .toLowerCase()
    .replace(/(\d+(?:[.,]\d+)?)\s*([a-z]+)\.?/g, (_m, num: string, word: string) => {
      const unit = UNIT_WORDS.find(([re]) => re.test(word))?.[1];
      if (!unit) return _m;
      parts[unit] += Number(num.replace(",", "."));
      matched = true;
      return " ";
    });
  if (!matched || /[a-z0-9]/.test(rest.replace(/\b(and|und)\b/g, ""))) return null;
  let minutes = parts.D * 1440 + parts.H * 60 + parts.M + parts.S / 60;
  minutes = Math.round(minutes);
  if (minutes <= 0) return null;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}`;
}

export const NUTRITION_ROWS = [
  ["calories", "Calories", ""],
  ["fatContent", "Fat", "g"],
  ["saturatedFatContent", "Saturated fat", "g"],
  ["transFatContent", "Trans fat", "g"],
  ["unsaturatedFatContent", "Unsaturated fat", "g"],
  ["cholesterolContent", "Cholesterol", "mg"],
  ["sodiumContent", "Sodium", "mg"],
  ["carbohydrateContent", "Carbohydrate", "g"],
  ["fiberContent", "Fibre", "g"],
  ["sugarContent", "Sugar", "g"],
  ["proteinContent", "Protein", "g"],
] as const;

/** A nutrition value with its unit, unless the stored text already names one ("250 kcal", "3 g"). */
export function withUnit(value: string, unit: string): string {
  const v = value.trim();
  if (!unit || /[a-zA-Z]/.test(v)) return v;
  return `${v} ${unit}`;
}

/** "4 servings", "2 loaves", "Makes 12 (3 servings)": the yield line Mealie shows. */
export function yieldText(r: {
  recipeServings: number;
  recipeYieldQuantity: number;
  recipeYield: string | null;
}): {
  servings: string | null;
  yield: string | null;
} {
  const servings =
    r.recipeServings > 0
      ? `${formatNumber(r.recipeServings)} ${r.recipeServings === 1 ? "serving" : "servings"}`
      : null;
  const unit = (r.recipeYield ?? "").trim();
  const qty = r.recipeYieldQuantity > 0 ? formatNumber(r.recipeYieldQuantity) : "";
  const y = [qty, unit].filter(Boolean).join(" ");
  // "4 servings" as the yield says nothing the servings line does not.
  const same = servings !== null && y.toLowerCase() === servings.toLowerCase();
  return { servings, yield: y && !same ? y : null };
}

export function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/*
 * Locale formats (decision 0105). Everything a person reads as a number, date or duration goes through
 * Intl with the page's language, so German gets "1,5", French "25 %", Arabic its own digits. Machine
 * text (schema.org data, the API) keeps the plain forms above.
 */

/** Intl formatters by language and options, each made once: making one costs more than using it. */
const formats = new Map<string, Intl.NumberFormat | Intl.ListFormat>();
function cachedFormat<F extends Intl.NumberFormat | Intl.ListFormat>(key: string, make: () => F): F {
  let f = formats.get(key) as F | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

function numberFormat(lang: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cachedFormat(
    `number|${lang}|${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(lang, options),
  );
}

/** A count or measure for reading: `1.234,5` in de-DE, `١٢` in ar-SA; at most two decimals. */
export function formatLocaleNumber(n: number, lang: string): string {
  return numberFormat(lang, { maximumFractionDigits: 2 }).format(n);
}

const BYTE_UNITS: Record<string, string> = {
  bytes: "byte",
  kB: "kilobyte",
  KB: "kilobyte",
  MB: "megabyte",
  GB: "gigabyte",
  TB: "terabyte",
};

/**
 * A size as the API writes it (`12.3 MB`, `2.25 KB`, `512 bytes`: Mealie's English wire text) for reading: `12,3 MB`
 * in de-DE, Arabic digits and unit in ar-SA. Text in another form stays as it came.
 */
export function formatSize(text: string, lang: string): string {
  const m = /^(\d+(?:\.\d+)?) (bytes|kB|KB|MB|GB|TB)$/.exec(text.trim());
  if (!m) return text;
  return numberFormat(lang, {
    style: "unit",
    unit: BYTE_UNITS[m[2]],
    unitDisplay: m[2] === "bytes" ? "long" : "short",
    maximumFractionDigits: 2,
  }).format(Number(m[1]));
}

/** A whole percentage (0–100) for reading: `25 %` in fr-FR, `٢٥٪؜` in ar-SA. */
export function formatPercent(percent: number, lang: string): string {
  return numberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

/**
 * Quantity text made by scale.ts (`2`, `1 ¹/₂`, `0.25`, `1-2`) in the language's digits and decimal sign.
 * The super/subscript fractions are read the same everywhere and stay as they are.
 */
export function localizeQuantity(text: string, lang: string): string {
  return text.replace(/\d+(?:\.\d+)?/g, (num) => {
    const decimals = num.includes(".") ? num.split(".")[1].length : 0;
    return numberFormat(lang, {
      useGrouping: false,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(Number(num));
  });
}

/** A date for reading (`25 nov. 2026`); an unreadable value stays as it came. */
export function formatDate(iso: string | Date, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleDateString(lang, { dateStyle: "medium" });
}

/** A date and time for reading (comments). */
export function formatDateTime(iso: string | Date, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? String(iso)
    : d.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A recipe time for reading: a duration core or the author wrote ("1 hour 30 minutes", "PT45M") in the
 * language's units ("1 Std., 30 Min.", "١ س و٣٠ د"); free text that is not a duration ("overnight")
 * stays as written.
 */
export function formatDuration(text: string, lang: string): string {
  const iso = toIsoDuration(text);
  const m = iso ? /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(iso) : null;
  if (!m) return text;
  const parts: string[] = [];
  const hours = Number(m[1] ?? 0);
  const minutes = Number(m[2] ?? 0);
  if (hours)
    parts.push(numberFormat(lang, { style: "unit", unit: "hour", unitDisplay: "short" }).format(hours));
  if (minutes)
    parts.push(numberFormat(lang, { style: "unit", unit: "minute", unitDisplay: "short" }).format(minutes));
  const list = cachedFormat(
    `units|${lang}`,
    () => new Intl.ListFormat(lang, { type: "unit", style: "narrow" }),
  );
  return list.format(parts);
}

/** Wraps text in Unicode first-strong isolates, for strings that cannot carry a <bdi> (titles, attributes). */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
