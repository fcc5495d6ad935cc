/**
 * The catalogues under web/app/locales checked against each other and against the code (decision 0105):
 * the complete languages have every English key in every namespace (new namespaces included, found by
 * listing the folder), every plural form their language's rules ask for, and the same placeholders; and
 * every key the code asks for with a literal `t("…")` exists in English.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { createInstance, type Resource } from "i18next";
import { COMPLETE_LANGUAGES, DEFAULT_LANG, LANGUAGES, isolatingT, type Catalogue } from "./i18n.js";

const LOCALES = join(import.meta.dirname, "..", "locales");
const APP = join(import.meta.dirname, "..");

function leaves(c: Catalogue, prefix = "", out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(c)) {
    if (typeof v === "string") out.set(prefix + k, v);
    else leaves(v, `${prefix}${k}.`, out);
  }
  return out;
}

function catalogue(lang: string, ns: string): Map<string, string> {
  try {
    return leaves(JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), "utf8")) as Catalogue);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw e;
  }
}

const namespaces = readdirSync(join(LOCALES, DEFAULT_LANG))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -".json".length));

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

/** English keys with i18next's plural suffixes folded: `recipeCount_one` + `_other` → `recipeCount`. */
function englishKeys(ns: string): { plain: Map<string, string>; plural: Map<string, string> } {
  const plain = new Map<string, string>();
  const plural = new Map<string, string>();
  for (const [key, value] of catalogue(DEFAULT_LANG, ns)) {
    const m = PLURAL.exec(key);
    if (m) plural.set(m[1], catalogue(DEFAULT_LANG, ns).get(`${m[1]}_other`) ?? value);
    else plain.set(key, value);
  }
  return { plain, plural };
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe("the language list", () => {
  it("offers Mealie's 42 interface locales, each once, English first", () => {
    const codes = LANGUAGES.map((l) => l.code);
    expect(codes.length).toBeGreaterThanOrEqual(42);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes[0]).toBe(DEFAULT_LANG);
    expect(LANGUAGES.filter((l) => l.dir === "rtl").map((l) => l.code)).toEqual(["ar-SA", "he-IL"]);
  });

  it("has a folder only for languages it lists", () => {
    const listed = new Set(LANGUAGES.map((l) => l.code));
    const folders = readdirSync(LOCALES).filter((f) => statSync(join(LOCALES, f)).isDirectory());
    expect(folders.filter((f) => !listed.has(f))).toEqual([]);
  });
});

describe.each(COMPLETE_LANGUAGES.filter((l) => l !== DEFAULT_LANG))("the complete language %s", (lang) => {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;

  it.each(namespaces)("translates every key of %s", (ns) => {
    const theirs = catalogue(lang, ns);
    const { plain, plural } = englishKeys(ns);
    const missing: string[] = [];
    for (const key of plain.keys()) if (!theirs.get(key)?.trim()) missing.push(key);
    for (const base of plural.keys())
      for (const c of categories) if (!theirs.get(`${base}_${c}`)?.trim()) missing.push(`${base}_${c}`);
    expect(missing, `${lang}/${ns}.json misses these keys`).toEqual([]);
  });

  it.each(namespaces)("keeps the placeholders of %s and adds no unknown key", (ns) => {
    const theirs = catalogue(lang, ns);
    const { plain, plural } = englishKeys(ns);
    const wrong: string[] = [];
    for (const [key, value] of theirs) {
      const m = PLURAL.exec(key);
      const english = m ? plural.get(m[1]) : plain.get(key);
      if (english === undefined) {
        wrong.push(`${key}: not an English key`);
        continue;
      }
      // A plural form may leave a number out ("one recipe", Arabic "وصفتان"), never add a placeholder.
      const need = placeholders(english);
      const have = placeholders(value);
      const bad = m ? have.some((p) => !need.includes(p)) : need.join() !== have.join();
      if (bad) wrong.push(`${key}: {{${have.join("}}, {{")}}} for {{${need.join("}}, {{")}}}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("every catalogue", () => {
  it("is valid JSON of nested strings in a listed namespace", () => {
    const problems: string[] = [];
    for (const lang of readdirSync(LOCALES)) {
      if (!statSync(join(LOCALES, lang)).isDirectory()) continue;
      for (const file of readdirSync(join(LOCALES, lang))) {
        const ns = file.replace(/\.json$/, "");
        if (!namespaces.includes(ns)) problems.push(`${lang}/${file}: no English ${file}`);
        const check = (c: unknown, at: string): void => {
          if (typeof c === "string") return;
          if (!c || typeof c !== "object" || Array.isArray(c))
            problems.push(`${lang}/${file}: ${at} is not text`);
          else for (const [k, v] of Object.entries(c)) check(v, at ? `${at}.${k}` : k);
        };
        check(JSON.parse(readFileSync(join(LOCALES, lang, file), "utf8")), "");
      }
    }
    expect(problems).toEqual([]);
  });
});

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/**
 * The keys a source file asks for: translate functions come from `const x = useT("ns")`,
 * `metaT(matches, "ns")` or `serverT(request, "ns")`; `x("key")` and `x("other:key")` with a literal key
 * are collected. Keys built at run time (`t(\`times.${k}\`)`) are out of reach of a static scan.
 */
function keysUsed(source: string): { ns: string; key: string }[] {
  // Several components in one file may each name `t` for their own namespace: a call uses the nearest
  // declaration before it.
  const decls: { fn: string; ns: string; at: number }[] = [];
  const decl = /\b(?:const|let)\s+(\w+)\s*=\s*(useT|metaT|serverT)\(([^)]*)\)/g;
  for (const m of source.matchAll(decl)) {
    const literal = /["']([\w-]+)["']\s*$/.exec(m[3].trim());
    decls.push({ fn: m[1], ns: literal ? literal[1] : "common", at: m.index ?? 0 });
  }
  const out: { ns: string; key: string }[] = [];
  for (const fn of new Set(decls.map((d) => d.fn))) {
    for (const m of source.matchAll(new RegExp(`(?<![\\w.])${fn}\\(\\s*["']([\\w.:-]+)["']`, "g"))) {
      const at = m.index ?? 0;
      const ns = decls.filter((d) => d.fn === fn && d.at < at).pop()?.ns;
      if (ns === undefined) continue;
      const [a, b] = m[1].split(":");
      out.push(b === undefined ? { ns, key: a } : { ns: a, key: b });
    }
  }
  return out;
}

describe("the keys the code uses", () => {
  it("reads useT, metaT and serverT declarations and namespaced keys", () => {
    const src = `const t = useT("shell"); const tc = useT("common"); const app = metaT(matches);
      t("nav.recipes"); tc("actions.save"); t("recipe:image"); app("appName"); t(\`times.\${k}\`);`;
    expect(keysUsed(src)).toEqual([
      { ns: "shell", key: "nav.recipes" },
      { ns: "recipe", key: "image" },
      { ns: "common", key: "actions.save" },
      { ns: "common", key: "appName" },
    ]);
  });

  it("finds every literal key in English (plural keys through their _other form)", () => {
    const missing: string[] = [];
    let count = 0;
    for (const file of sources(APP)) {
      for (const { ns, key } of keysUsed(readFileSync(file, "utf8"))) {
        count++;
        const en = catalogue(DEFAULT_LANG, ns);
        if (!en.has(key) && !en.has(`${key}_other`)) missing.push(`${relative(APP, file)}: ${ns}:${key}`);
      }
    }
    expect(count).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });
});

describe("values in right-to-left sentences", () => {
  // A bare i18next instance, so the test does not depend on how the app loads its catalogues.
  const tFor = (lang: string, resources: Resource) => {
    const i18n = createInstance();
    void i18n.init({ lng: lang, resources, initAsync: false, interpolation: { escapeValue: false } });
    return i18n.getFixedT(lang, "ns");
  };

  it("isolates names and numbers in Arabic and leaves English and plural counts alone", () => {
    const ar = isolatingT(
      tFor("ar-SA", { "ar-SA": { ns: { confirm: "حذف «{{name}}»؟", n: "{{count}}" } } }),
      "rtl",
    );
    expect(ar("confirm", { name: "Pad Thai 2" })).toBe("حذف «\u2068Pad Thai 2\u2069»؟");
    expect(ar("n", { count: 2 })).toBe("2");
    const en = isolatingT(tFor("en-US", { "en-US": { ns: { x: "{{n}} of {{m}}" } } }), "ltr");
    expect(en("x", { n: "3", m: 5 })).toBe("3 of 5");
  });
});
