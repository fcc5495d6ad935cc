/**
 * i18n for the web UI (decision 0013): i18next + react-i18next, one catalogue per namespace in
 * `web/app/locales/<lang>/<namespace>.json`. The server picks the language (cookie `lang`, then
 * Accept-Language; lib/i18n.server.ts). The catalogues are not page data (decision 0117): the root loader
 * names the language's catalogues and the English fallback by content hash, the document links them
 * (`/locales/<lang>/<ns>.json?v=<hash>`, cached for good by the browser), and entry.client.tsx loads them
 * before hydrating. No catalogue is part of the JavaScript bundle or of any page's data.
 *
 * In components: `const t = useT("shell"); t("search.placeholder")`. Keys of another namespace:
 * `t("common:actions.save")`. In `meta` functions (no hooks): `metaT(matches, "shell")`.
 */
import { createInstance, type i18n as I18n, type TFunction } from "i18next";
import { useContext } from "react";
import { I18nContext } from "react-i18next";
import { useRouteLoaderData } from "react-router";

export type Direction = "ltr" | "rtl";

export interface Language {
  /** BCP 47 tag as Mealie names its locales (and the folder under web/app/locales). */
  code: string;
  /** The language's own name, so a reader of that language finds it. */
  name: string;
  dir: Direction;
}

/** The languages with a catalogue folder. Add one here and under web/app/locales (docs/translating.md). */
export const LANGUAGES: readonly Language[] = [
  { code: "en-US", name: "American English", dir: "ltr" },
  { code: "de-DE", name: "Deutsch (German)", dir: "ltr" },
  { code: "fr-FR", name: "Français (French)", dir: "ltr" },
  { code: "he-IL", name: "עברית (Hebrew)", dir: "rtl" },
  { code: "ar-SA", name: "العربية (Arabic)", dir: "rtl" },
];

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

/** lang → namespace → content hash of the catalogue. */
export type CatalogueRefs = Record<string, Record<string, string>>;

/** What the root loader sends to the browser for i18n: the language and which catalogues it needs. */
export interface I18nData {
  lang: string;
  dir: Direction;
  catalogues: CatalogueRefs;
}

/** Where a catalogue is served (web/app/routes/locales.$lang.$ns[.]json.ts); the hash makes it immutable. */
export function catalogueUrl(lang: string, ns: string, hash: string): string {
  return `/locales/${encodeURIComponent(lang)}/${encodeURIComponent(ns)}.json?v=${encodeURIComponent(hash)}`;
}

export function languageOf(code: string | null | undefined): Language | null {
  return LANGUAGES.find((l) => l.code === code) ?? null;
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
  for (const code of new Set([DEFAULT_LANG, lang])) if (known[code]) resources[code] = known[code];
  const namespaces = new Set<string>([DEFAULT_NS]);
  for (const byNs of Object.values(known)) for (const ns of Object.keys(byNs)) namespaces.add(ns);
  const instance = createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: DEFAULT_LANG,
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
  if (!t) byNs.set(ns, (t = remembering(instance.getFixedT(instance.language, ns))));
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
  return i18nFor(lang).getFixedT(lang, ns);
}
