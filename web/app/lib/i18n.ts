/**
 * i18n for the web UI (decision 0013): i18next + react-i18next, one catalogue per namespace in
 * `web/app/locales/<lang>/<namespace>.json`. The server picks the language (cookie `lang`, then
 * Accept-Language; lib/i18n.server.ts). The catalogues are not page data (decision 0117): the root loader
 * names the language's catalogues and the English fallback by content hash, the document links them
 * (`/locales/<lang>/catalogues.json?v=<hash>`, every namespace of a language in one document, cached for
 * good by the browser; decision 0223), and entry.client.tsx loads them before hydrating. No catalogue is
 * part of the JavaScript bundle or of any page's data.
 *
 * In components: `const t = useT("shell"); t("search.placeholder")`. Keys of another namespace:
 * `t("common:actions.save")`. In `meta` functions (no hooks): `metaT(matches, "shell")`.
 */
import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { useContext } from "react";
import { I18nContext } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { MEALIE_INTERFACE_LOCALES, type MealieInterfaceLocale } from "./pure-core.js";

export type Direction = "ltr" | "rtl";

export interface Language {
  /** BCP 47 tag as Mealie names its locales (and the folder under web/app/locales). */
  code: string;
  /** The language's own name, so a reader of that language finds it. */
  name: string;
  dir: Direction;
}

/** Each interface locale's own name (so a reader of that language finds it) and its direction. */
const NAMES: Record<MealieInterfaceLocale, string> = {
  "af-ZA": "Afrikaans (Afrikaans)",
  "ar-SA": "العربية (Arabic)",
  "bg-BG": "Български (Bulgarian)",
  "ca-ES": "Català (Catalan)",
  "cs-CZ": "Čeština (Czech)",
  "da-DK": "Dansk (Danish)",
  "de-DE": "Deutsch (German)",
  "el-GR": "Ελληνικά (Greek)",
  "en-GB": "British English",
  "en-US": "American English",
  "es-ES": "Español (Spanish)",
  "et-EE": "Eesti (Estonian)",
  "fi-FI": "Suomi (Finnish)",
  "fr-BE": "Français de Belgique (Belgian French)",
  "fr-CA": "Français canadien (Canadian French)",
  "fr-FR": "Français (French)",
  "gl-ES": "Galego (Galician)",
  "he-IL": "עברית (Hebrew)",
  "hr-HR": "Hrvatski (Croatian)",
  "hu-HU": "Magyar (Hungarian)",
  "is-IS": "Íslenska (Icelandic)",
  "it-IT": "Italiano (Italian)",
  "ja-JP": "日本語 (Japanese)",
  "ko-KR": "한국어 (Korean)",
  "lt-LT": "Lietuvių (Lithuanian)",
  "lv-LV": "Latviešu (Latvian)",
  "nl-NL": "Nederlands (Dutch)",
  "no-NO": "Norsk (Norwegian)",
  "pl-PL": "Polski (Polish)",
  "pt-BR": "Português do Brasil (Brazilian Portuguese)",
  "pt-PT": "Português (Portuguese)",
  "ro-RO": "Română (Romanian)",
  "ru-RU": "Русский (Russian)",
  "sk-SK": "Slovenčina (Slovak)",
  "sl-SI": "Slovenščina (Slovenian)",
  "sr-SP": "Српски (Serbian)",
  "sv-SE": "Svenska (Swedish)",
  "tr-TR": "Türkçe (Turkish)",
  "uk-UA": "Українська (Ukrainian)",
  "vi-VN": "Tiếng Việt (Vietnamese)",
  "zh-CN": "简体中文 (Simplified Chinese)",
  "zh-TW": "繁體中文 (Traditional Chinese)",
};
const RTL = new Set<string>(["ar-SA", "he-IL"]);

/**
 * Mealie's 42 interface locales (core/labels/locales.ts), English first. Each may have a folder under
 * web/app/locales; one without shows English (docs/translating.md says how to add text).
 */
export const LANGUAGES: readonly Language[] = [
  "en-US",
  ...MEALIE_INTERFACE_LOCALES.filter((c) => c !== "en-US"),
].map((code) => ({ code, name: NAMES[code as MealieInterfaceLocale], dir: RTL.has(code) ? "rtl" : "ltr" }));

/** The languages kept complete (a test fails on a missing key in any namespace); decision 0105. */
export const COMPLETE_LANGUAGES = ["en-US", "de-DE", "fr-FR", "es-ES", "nl-NL", "he-IL", "ar-SA"] as const;

/**
 * A regional variant without its own text reads its sibling's before English (fr-CA → fr-FR), as
 * Mealie's users of those variants would expect; English variants fall back to the source anyway.
 */
export const SIBLINGS: Readonly<Record<string, string>> = {
  "fr-BE": "fr-FR",
  "fr-CA": "fr-FR",
  "pt-PT": "pt-BR",
};

export const DEFAULT_LANG = "en-US";
export const DEFAULT_NS = "common";
/** The cookie the language dialog writes; the server reads it before Accept-Language. */
export const LANG_COOKIE = "lang";

/** A namespace's catalogue: nested objects of strings. */
export interface Catalogue {
  [key: string]: string | Catalogue;
}
/** lang → namespace → catalogue. */
export type Resources = Record<string, Record<string, Catalogue>>;

/** lang → content hash of the language's catalogues (every namespace, as one document). */
export type CatalogueRefs = Record<string, string>;

/** What the root loader sends to the browser for i18n: the language and which catalogues it needs. */
export interface I18nData {
  lang: string;
  dir: Direction;
  catalogues: CatalogueRefs;
}

/**
 * Where a language's catalogues are served (web/app/routes/locales.$lang.catalogues[.]json.ts), as
 * `{ namespace: catalogue }`; the hash makes the address immutable.
 */
export function catalogueUrl(lang: string, hash: string): string {
  return `/locales/${encodeURIComponent(lang)}/catalogues.json?v=${encodeURIComponent(hash)}`;
}

export function languageOf(code: string | null | undefined): Language | null {
  return LANGUAGES.find((l) => l.code === code) ?? null;
}

/** The languages i18next tries after `code`: its regional sibling if any, then English. */
export function fallbacksOf(code: string): string[] {
  const sibling = SIBLINGS[code];
  return sibling ? [sibling, DEFAULT_LANG] : [DEFAULT_LANG];
}

export function directionOf(code: string): Direction {
  return languageOf(code)?.dir ?? "ltr";
}

// One instance per language: catalogues are fixed per build, so an instance can serve every request in
// that language on the server and the whole session in the browser (no global i18next state).
const instances = new Map<string, I18n>();

/**
 * The catalogues known here: all of them on the server (lib/i18n.server.ts), the page's language and
 * the fallback in the browser (entry.client.tsx, before hydration).
 */
const known: Resources = {};

/** Adds catalogues; instances made before them get them too. */
export function provideCatalogues(resources: Resources): void {
  for (const [lang, byNs] of Object.entries(resources))
    for (const [ns, catalogue] of Object.entries(byNs)) {
      (known[lang] ??= {})[ns] = catalogue;
      for (const instance of instances.values()) instance.addResourceBundle(lang, ns, catalogue, true, true);
    }
}

/** The i18next instance for a language, created synchronously from the catalogues known here. */
export function i18nFor(lang: string): I18n {
  const hit = instances.get(lang);
  if (hit) return hit;
  const resources: Resources = {};
  for (const code of new Set([lang, ...fallbacksOf(lang)])) if (known[code]) resources[code] = known[code];
  const namespaces = new Set<string>([DEFAULT_NS]);
  for (const byNs of Object.values(known)) for (const ns of Object.keys(byNs)) namespaces.add(ns);
  const instance = createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: fallbacksOf(lang),
    supportedLngs: LANGUAGES.map((l) => l.code),
    resources,
    ns: [...namespaces],
    defaultNS: DEFAULT_NS,
    // React escapes text already; catalogues hold plain text, never HTML.
    interpolation: { escapeValue: false },
    // A partial translation leaves keys empty: show English for those instead of nothing.
    returnEmptyString: false,
    returnNull: false,
    initAsync: false,
    react: { useSuspense: false },
  });
  instances.set(lang, instance);
  return instance;
}

/** i18next's own options, passed beside the values: never text to isolate. */
const OPTION_KEYS = new Set([
  "count",
  "context",
  "defaultValue",
  "ns",
  "lng",
  "lngs",
  "fallbackLng",
  "returnObjects",
  "returnDetails",
  "joinArrays",
  "postProcess",
  "interpolation",
  "keyPrefix",
  "ordinal",
  "replace",
]);

/**
 * In a right-to-left language, each text value put into a sentence ("حذف «{{name}}»؟") is wrapped in
 * Unicode isolates (U+2068…U+2069), so a Latin recipe name or a number keeps its own reading order and
 * does not drag the punctuation around it to the wrong side. Left-to-right text is left untouched.
 */
export function isolatingT(t: TFunction, dir: Direction): TFunction {
  if (dir !== "rtl") return t;
  const call = t as unknown as (...a: unknown[]) => unknown;
  const wrapped = (key: unknown, ...rest: unknown[]) => {
    const [first, ...more] = rest;
    if (first && typeof first === "object" && !Array.isArray(first)) {
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(first as Record<string, unknown>))
        values[k] =
          !OPTION_KEYS.has(k) && (typeof v === "string" || typeof v === "number") ? `\u2068${v}\u2069` : v;
      return call(key, values, ...more);
    }
    return call(key, ...rest);
  };
  return wrapped as unknown as TFunction;
}

// Translate functions per instance and namespace. An instance never changes language (one per language,
// above), so its fixed functions never go stale; react-i18next's useTranslation instead copies the whole
// instance for each component that calls it, which was a tenth of a recipe page's server render.
const fixedTs = new WeakMap<I18n, Map<string, TFunction>>();

/** The translate function of a namespace (default `common`), from the I18nextProvider's instance. */
export function useT(ns: string = DEFAULT_NS): TFunction {
  const instance = useContext(I18nContext)?.i18n;
  if (!instance) return ((key: string) => key) as unknown as TFunction;
  let byNs = fixedTs.get(instance);
  if (!byNs) fixedTs.set(instance, (byNs = new Map()));
  let t = byNs.get(ns);
  if (!t)
    byNs.set(
      ns,
      (t = isolatingT(
        remembering(instance.getFixedT(instance.language, ns)),
        directionOf(instance.language),
      )),
    );
  return t;
}

/** A translate function that looks a plain key (no values to interpolate) up once. */
function remembering(fixed: TFunction): TFunction {
  const plain = new Map<string, string>();
  const t = (key: string | string[], ...rest: unknown[]) => {
    if (rest.length > 0 || typeof key !== "string")
      return (fixed as unknown as (...a: unknown[]) => unknown)(key, ...rest);
    let out = plain.get(key);
    if (out === undefined) plain.set(key, (out = String(fixed(key))));
    return out;
  };
  return t as unknown as TFunction;
}

/** The current language and direction, from the root loader. */
export function useLanguage(): { lang: string; dir: Direction } {
  const data = useRouteLoaderData<{ i18n?: I18nData }>("root")?.i18n;
  return { lang: data?.lang ?? DEFAULT_LANG, dir: data?.dir ?? "ltr" };
}

interface MetaMatch {
  id: string;
  data?: unknown;
}

/** A translate function for `meta` exports, which cannot use hooks: reads the root loader's i18n data. */
export function metaT(matches: readonly MetaMatch[], ns: string = DEFAULT_NS): TFunction {
  const root = matches.find((m) => m.id === "root")?.data as { i18n?: I18nData } | undefined;
  const lang = root?.i18n?.lang ?? DEFAULT_LANG;
  return isolatingT(i18nFor(lang).getFixedT(lang, ns), directionOf(lang));
}
