/**
 * Server side of i18n: the catalogues (read at build time with import.meta.glob, so they live in the
 * server bundle only), language detection, and each language's percent translated.
 */
import { createHash } from "node:crypto";
import {
  DEFAULT_LANG,
  LANG_COOKIE,
  LANGUAGES,
  directionOf,
  fallbacksOf,
  i18nFor,
  isolatingT,
  languageOf,
  provideCatalogues,
  type Catalogue,
  type CatalogueRefs,
  type I18nData,
  type Resources,
} from "./i18n.js";
import { readCookie, serializeCookie } from "../../server/edge.js";

const files = import.meta.glob<Catalogue>("../locales/*/*.json", { eager: true, import: "default" });

/** Every catalogue: lang → namespace → catalogue. */
const ALL: Resources = {};
for (const [path, catalogue] of Object.entries(files)) {
  const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!m) continue;
  (ALL[m[1]] ??= {})[m[2]] = catalogue;
}
provideCatalogues(ALL);

/**
 * Each language's catalogues as the browser gets them, all namespaces in one document (decision 0223:
 * a page needs every namespace before it hydrates, and over HTTP/1.1 on a slow phone connection each
 * request of thirteen cost a round trip): its JSON, and a hash of that JSON for the URL and the ETag.
 */
const SERVED = new Map<string, { json: string; hash: string }>();
for (const [lang, byNs] of Object.entries(ALL)) {
  const json = JSON.stringify(byNs);
  SERVED.set(lang, { json, hash: createHash("sha256").update(json).digest("base64url").slice(0, 16) });
}

/** A language's catalogues (JSON and hash, for their route), or null when the language has none. */
export function servedCatalogues(lang: string): { json: string; hash: string } | null {
  return SERVED.get(lang) ?? null;
}

const refs = new Map<string, CatalogueRefs>();
/** The catalogues a page in this language needs: its own and the English fallback's, by hash. */
function catalogueRefs(lang: string): CatalogueRefs {
  let out = refs.get(lang);
  if (!out) {
    out = {};
    for (const code of new Set([lang, ...fallbacksOf(lang)])) {
      const served = SERVED.get(code);
      if (served) out[code] = served.hash;
    }
    refs.set(lang, out);
  }
  return out;
}

/** The language for this request: the `lang` cookie, then Accept-Language (exact tag, then language). */
export function detectLanguage(request: Request): string {
  const cookie = readCookie(request.headers.get("Cookie"), LANG_COOKIE);
  if (languageOf(cookie)) return cookie as string;
  const header = request.headers.get("Accept-Language") ?? "";
  const wanted = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q) : 1 };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q);
  // Only languages with some text of their own: a browser asking for Japanese gets English text with
  // English formats rather than English text under <html lang="ja-JP"> (the dialog still offers them all).
  const offered = detectable();
  for (const { tag } of wanted) {
    const exact = offered.find((l) => l.code.toLowerCase() === tag);
    if (exact) return exact.code;
    const base = tag.split("-")[0];
    // "fr" means the French with its own catalogue (fr-FR), not the first variant listed (fr-BE).
    const same = offered.filter((l) => l.code.toLowerCase().split("-")[0] === base);
    const sameLanguage = same.find((l) => ALL[l.code]) ?? same[0];
    if (sameLanguage) return sameLanguage.code;
  }
  return DEFAULT_LANG;
}

let detectableCache: typeof LANGUAGES | null = null;
function detectable(): typeof LANGUAGES {
  return (detectableCache ??= LANGUAGES.filter((l) => percentTranslated(l.code) > 0));
}

/** The page's language and the catalogues the browser needs: the language's own plus the English fallback. */
export function i18nData(lang: string): I18nData {
  return { lang, dir: directionOf(lang), catalogues: catalogueRefs(lang) };
}

function leaves(c: Catalogue, prefix = "", out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(c)) {
    if (typeof v === "string") out.set(prefix + k, v);
    else leaves(v, `${prefix}${k}.`, out);
  }
  return out;
}

/**
 * Percent of the English keys (all namespaces) that a language shows in its own words: a non-empty
 * string in its catalogue or its regional sibling's (fr-CA reads fr-FR; fallbacksOf). English variants
 * count English. Floored, so 100 means every key.
 */
export function percentTranslated(lang: string): number {
  const own = [lang, ...fallbacksOf(lang)].filter((c) => c !== DEFAULT_LANG || lang.startsWith("en-"));
  let total = 0;
  let done = 0;
  for (const [ns, catalogue] of Object.entries(ALL[DEFAULT_LANG] ?? {})) {
    const theirs = own.map((code) => leaves(ALL[code]?.[ns] ?? {}));
    for (const key of leaves(catalogue).keys()) {
      total++;
      if (theirs.some((t) => t.get(key)?.trim())) done++;
    }
  }
  return total === 0 ? 0 : Math.floor((done / total) * 100);
}

let languages: { code: string; name: string; dir: string; progress: number }[] | null = null;

/** The language dialog's list: each language with its percent translated (fixed per build: counted once). */
export function languageList(): { code: string; name: string; dir: string; progress: number }[] {
  return (languages ??= LANGUAGES.map((l) => ({ ...l, progress: percentTranslated(l.code) })));
}

/** A `lang` cookie for a year (not httpOnly: nothing secret, and harmless to read from scripts). */
export function languageCookie(lang: string): string {
  return serializeCookie(LANG_COOKIE, lang, { httpOnly: false, maxAge: 365 * 24 * 3600 });
}

/** A translate function for this request's language, for text made on the server (toasts from actions). */
export function serverT(
  request: Request,
  ns: string = "common",
): (key: string, values?: Record<string, unknown>) => string {
  const lang = detectLanguage(request);
  const fixed = isolatingT(i18nFor(lang).getFixedT(lang, ns), directionOf(lang));
  return (key, values) => String(fixed(key, values ?? {}));
}
