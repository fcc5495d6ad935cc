/**
 * The recipe's front-matter keys: which RecipeDoc fields they hold, in which order they are written, and
 * how hand-written values are read (tolerant where the meaning is clear, a RecipeFileError otherwise).
 */
import {
  NUTRITION_KEYS,
  RECIPE_SETTING_KEYS as SETTINGS_KEYS,
  RECIPE_SETTINGS_DEFAULTS,
  type NutritionKey,
  type RecipeSettings,
} from "../../schemas/recipe-defaults.js";
import type { RecipeAsset } from "../../schemas/recipe.js";
import { camelKey } from "../../util/case.js";
import type { RecipeDoc } from "../doc.js";
import { RECIPE_FIELD_KEYS, RECIPE_FIELDS, type FieldKind, type RecipeFieldKey } from "../fields.js";
import { RecipeFileError } from "./errors.js";
import type { FrontMatter, FrontMatterEntry } from "./front-matter.js";

export type RecipeMetadata = Omit<RecipeDoc, "description" | "ingredients" | "instructions" | "notes">;

type KeyOfKind<K extends FieldKind> = {
  [F in RecipeFieldKey]: (typeof RECIPE_FIELDS)[F]["kind"] extends K ? F : never;
}[RecipeFieldKey];
type TextKey = KeyOfKind<"text">;
type CountKey = KeyOfKind<"count">;
type NamesKey = KeyOfKind<"names">;

/** Organizer lists up to this many characters are written in flow style (`[a, b]`). */
const FLOW_LIST_LIMIT = 80;

/** Other spellings accepted when reading (Mealie's names, snake_case is folded by camelKey). */
const ALIASES: Record<string, string> = {
  userId: "owner",
  recipeCategory: "categories",
  orgUrl: "orgURL",
  orgurl: "orgURL",
};

// Every file repeats the same few keys: each is folded once (bounded, for folders of odd hand-written keys).
const canonicalKeys = new Map<string, string>();
const CANONICAL_KEYS_KEPT = 1000;

export function canonicalKey(key: string): string {
  const known = canonicalKeys.get(key);
  if (known !== undefined) return known;
  const k = camelKey(key);
  const out = ALIASES[k] ?? k;
  if (canonicalKeys.size < CANONICAL_KEYS_KEPT) canonicalKeys.set(key, out);
  return out;
}

/** Writes the declared keys in their order (core/recipes/fields.ts), each only when it has a value. */
export function metadataEntries(doc: RecipeDoc): FrontMatterEntry[] {
  const out: FrontMatterEntry[] = [];
  const put = (key: string, value: unknown, flow = false): void => {
    out.push({ key, value, flow });
  };
  for (const key of RECIPE_FIELD_KEYS) {
    const kind = RECIPE_FIELDS[key].kind as FieldKind;
    switch (kind) {
      case "name":
        put(key, doc[key as "name"]);
        break;
      case "text": {
        const v = doc[key as TextKey];
        if (v !== null) put(key, v);
        break;
      }
      case "count": {
        const v = doc[key as CountKey];
        if (v) put(key, v);
        break;
      }
      case "names": {
        const list = doc[key as NamesKey];
        if (list.length === 0) break;
        const short = list.reduce((n, s) => n + s.length + 2, 0) <= FLOW_LIST_LIMIT;
        put(key, [...list], short);
        break;
      }
      case "nutrition": {
        const nutrition = NUTRITION_KEYS.filter((k) => doc.nutrition[k] !== undefined);
        if (nutrition.length) put(key, Object.fromEntries(nutrition.map((k) => [k, doc.nutrition[k]])));
        break;
      }
      case "settings": {
        const settings = SETTINGS_KEYS.filter(
          (k) => doc.settings[k] !== undefined && doc.settings[k] !== RECIPE_SETTINGS_DEFAULTS[k],
        );
        if (settings.length) put(key, Object.fromEntries(settings.map((k) => [k, doc.settings[k]])));
        break;
      }
      case "extras":
        if (Object.keys(doc.extras).length) put(key, Object.fromEntries(Object.entries(doc.extras)));
        break;
      case "assets":
        if (doc.assets.length)
          put(
            key,
            doc.assets.map((a) =>
              a.fileName === null
                ? { name: a.name, icon: a.icon }
                : { name: a.name, icon: a.icon, fileName: a.fileName },
            ),
          );
        break;
    }
  }
  // Keys Larder does not know (another tool's, or a future version's) are kept, after ours.
  for (const [key, value] of Object.entries(doc.otherKeys ?? {})) put(key, value);
  return out;
}

/** Every front-matter key (after alias folding) that metadataEntries writes. */
const KNOWN_KEYS = new Set<string>(RECIPE_FIELD_KEYS);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads the metadata; `name` is null when the file has none. */
export function readMetadata(fm: FrontMatter): Omit<RecipeMetadata, "name"> & { name: string | null } {
  const data = new Map<string, { key: string; value: unknown }>();
  for (const [key, value] of Object.entries(fm.data)) {
    const k = canonicalKey(key);
    if (!data.has(k) || k === key) data.set(k, { key, value });
  }
  const fail = (key: string, message: string): never => {
    throw new RecipeFileError(
      `${data.get(key)?.key ?? key}: ${message}`,
      fm.lineOf(data.get(key)?.key ?? key),
    );
  };
  const raw = (key: string): unknown => data.get(key)?.value ?? null;

  const text = (key: string): string | null => {
    const v = raw(key);
    if (v === null) return null;
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    return fail(key, "expected text");
  };
  const number = (key: string): number => {
    const v = raw(key);
    if (v === null) return 0;
    const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isFinite(n)) return fail(key, "expected a number");
    return n || 0;
  };
  const names = (key: string): string[] => {
    const v = raw(key);
    if (v === null) return [];
    // A hand-written `tags: Indian, Spicy` means two tags.
    if (typeof v === "string")
      return v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    if (!Array.isArray(v)) return fail(key, "expected a list of names");
    return v
      .filter((x) => x !== null)
      .map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : fail(key, "expected names")));
  };
  const stringMap = (key: string): Record<string, string> => {
    const v = raw(key);
    if (v === null) return {};
    if (!isPlainObject(v)) return fail(key, "expected key: value pairs");
    const entries = Object.entries(v)
      .filter(([, x]) => x !== null)
      .map(([k, x]): [string, string] =>
        typeof x === "string" || typeof x === "number" || typeof x === "boolean"
          ? [k, String(x)]
          : fail(key, `${k}: expected text`),
      );
    return Object.fromEntries(entries);
  };

  const nutritionIn = stringMap("nutrition");
  const nutrition: Partial<Record<NutritionKey, string>> = {};
  for (const k of NUTRITION_KEYS) if (nutritionIn[k] !== undefined) nutrition[k] = nutritionIn[k];

  const settingsIn = raw("settings");
  const settings: Partial<RecipeSettings> = {};
  if (settingsIn !== null) {
    if (!isPlainObject(settingsIn)) fail("settings", "expected key: value pairs");
    else {
      for (const [k, v] of Object.entries(settingsIn)) {
        const sk = camelKey(k) as keyof RecipeSettings;
        if (!SETTINGS_KEYS.includes(sk) || v === null) continue;
        if (typeof v !== "boolean") fail("settings", `${k}: expected true or false`);
        else settings[sk] = v;
      }
    }
  }

  const assetsIn = raw("assets");
  let assets: RecipeAsset[] = [];
  if (assetsIn !== null) {
    if (!Array.isArray(assetsIn)) fail("assets", "expected a list");
    else {
      assets = assetsIn.map((a): RecipeAsset => {
        if (!isPlainObject(a) || typeof a.name !== "string" || typeof a.icon !== "string") {
          return fail("assets", "each asset needs a name and an icon");
        }
        const fileName = a.fileName ?? a.file_name ?? null;
        return { name: a.name, icon: a.icon, fileName: typeof fileName === "string" ? fileName : null };
      });
    }
  }

  const out: Record<string, unknown> = {};
  for (const key of RECIPE_FIELD_KEYS) {
    const kind = RECIPE_FIELDS[key].kind as FieldKind;
    if (kind === "text" || kind === "name") out[key] = text(key);
    else if (kind === "count") out[key] = number(key);
    else if (kind === "names") out[key] = names(key);
    else if (kind === "nutrition") out[key] = nutrition;
    else if (kind === "settings") out[key] = settings;
    else if (kind === "extras") out[key] = stringMap(key);
    else out[key] = assets;
  }
  return {
    ...(out as Omit<RecipeMetadata, "name"> & { name: string | null }),
    ...otherKeysOf(data),
  };
}

function otherKeysOf(data: Map<string, { key: string; value: unknown }>): {
  otherKeys?: Record<string, unknown>;
} {
  const other = [...data.entries()]
    .filter(([k]) => !KNOWN_KEYS.has(k))
    .map(([, e]) => [e.key, e.value] as const);
  return other.length ? { otherKeys: Object.fromEntries(other) } : {};
}
