/**
 * Recipes a JavaScript app ships only in its page state: Next.js's `<script id="__NEXT_DATA__"
 * type="application/json">`, a Nuxt 2 `window.__NUXT__ = {…}` script, or Nuxt 3's `<script
 * id="__NUXT_DATA__" type="application/json">` in devalue's flat format. Some sites render the recipe
 * from there and write no JSON-LD. Only objects that are schema.org Recipes (`@type` Recipe, or a
 * `recipeIngredient` list and no other type) are taken, so an app's own recipe model, whose field
 * names nothing here knows, is left alone.
 */
import type { Element } from "domhandler";
import { parseJsonLoose } from "./loose-json.js";
import { unflatten } from "./devalue.js";
import { PAGE_MAX_BYTES } from "./page.js";

type Obj = Record<string, unknown>;

/** Bounds on the walk: page state can hold a whole site's menu, and the page is untrusted. */
const MAX_DEPTH = 40;
const MAX_NODES = 200_000;
/** A string holding JSON-LD (Next.js pages often keep their schema as a string prop), at most this many parsed. */
const MAX_EMBEDDED = 20;
const MAX_EMBEDDED_CHARS = 1_000_000;

const NUXT = /^\s*window\.__NUXT__\s*=\s*(?=\{)/;

/** A page state's text, and whether it is written in devalue's flat format rather than as JSON objects. */
export interface AppStateText {
  text: string;
  flat: boolean;
}

/** The state's text when the script is an app's page state, else null. */
export function appStateText(el: Element, text: string): AppStateText | null {
  const a = el.attribs;
  const json = /json/i.test(a.type ?? "");
  if (a.id === "__NEXT_DATA__" && json) return { text, flat: false };
  // Nuxt 3 names its payload by id, or by `data-nuxt-data` when a page holds more than one app.
  if ((a.id === "__NUXT_DATA__" || "data-nuxt-data" in a) && json) return { text, flat: true };
  // Nuxt 2 writes an object literal, or a function that builds one (not JSON: not read).
  const nuxt = NUXT.exec(text);
  return nuxt ? { text: text.slice(nuxt[0].length), flat: false } : null;
}

/** The page state as plain data, or undefined when it does not parse. */
export function parseAppState(state: AppStateText): unknown {
  const parsed = parseJsonLoose(state.text);
  if (!state.flat || parsed === undefined) return parsed;
  // Shared values can make a small payload stand for a huge state: no more text than a page can hold.
  return unflatten(parsed, { maxDepth: MAX_DEPTH, maxNodes: MAX_NODES, maxChars: PAGE_MAX_BYTES });
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

function typeNames(o: Obj): string[] {
  const t = o["@type"];
  return (Array.isArray(t) ? t : [t])
    .filter((x): x is string => typeof x === "string")
    .map((x) => x.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, "").toLowerCase());
}

/**
 * The schema.org Recipes in parsed page states, each as a JSON-LD block (typed Recipe), in the order
 * found. A recipe found is not walked into: its parts are not other recipes.
 */
export function recipesInAppState(states: unknown[]): Obj[] {
  const found: Obj[] = [];
  const stack: Array<[unknown, number]> = states.map((s) => [s, 0]);
  let nodes = 0;
  let embedded = 0;
  while (stack.length && nodes++ < MAX_NODES) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) continue;
    if (typeof v === "string") {
      const t = v.trimStart();
      if (
        (t.startsWith("{") || t.startsWith("[")) &&
        t.length <= MAX_EMBEDDED_CHARS &&
        /"Recipe"|recipeIngredient/.test(t) &&
        embedded++ < MAX_EMBEDDED
      ) {
        const parsed = parseJsonLoose(t);
        if (parsed !== undefined) stack.push([parsed, depth + 1]);
      }
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], depth + 1]);
      continue;
    }
    if (!isObj(v)) continue;
    const types = typeNames(v);
    if (types.includes("recipe")) {
      found.push(v);
      continue;
    }
    if (types.length === 0 && Array.isArray(v.recipeIngredient) && v.recipeIngredient.length > 0) {
      found.push({ ...v, "@type": "Recipe" });
      continue;
    }
    const values = Object.values(v);
    for (let i = values.length - 1; i >= 0; i--) stack.push([values[i], depth + 1]);
  }
  return found;
}
