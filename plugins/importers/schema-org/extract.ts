/**
 * Finding the recipe in a page: schema.org JSON-LD first (`@graph`, arrays, `mainEntity`, type arrays),
 * then microdata, then OpenGraph. Nothing here knows any site: what a page says about itself in
 * schema.org is the only source, so the same rules hold on pages never seen.
 */
import { parseDocument } from "htmlparser2";
import type { ChildNode, Element, Document } from "domhandler";
import { unwrapped } from "./wrapped-lines.js";
import { parseJsonLoose } from "./loose-json.js";
import { appStateText, parseAppState, recipesInAppState, type AppStateText } from "./app-data.js";

export { parseJsonLoose };

export type SchemaObject = Record<string, unknown>;

export interface PageData {
  /** The schema.org Recipe found, with `@id` references into its graph resolved. */
  recipe: SchemaObject | null;
  source: "json-ld" | "microdata" | "opengraph" | "html" | null;
  /** Meta tags by lower-cased property/name (first value wins; `og:image` keeps every value). */
  meta: Map<string, string[]>;
  /** `<link rel=canonical>`, `<html lang>`, `<title>`. */
  canonical: string | null;
  /** `<base href>`: what the page's relative addresses are relative to, when not the page itself. */
  baseHref: string | null;
  title: string | null;
  /** JSON-LD blocks that did not parse (reported, never fatal). */
  brokenJsonLd: number;
  /** The parsed page, for the markup readers (dom.ts). */
  document: Document;
}

function isElement(n: ChildNode): n is Element {
  return n.type === "tag" || n.type === "script" || n.type === "style";
}

function* walk(nodes: readonly ChildNode[]): Generator<Element> {
  const stack: ChildNode[] = [...nodes].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

export function textOf(node: ChildNode): string {
  if (node.type === "text") return node.data;
  if (!isElement(node)) return "";
  if (node.name === "script" || node.name === "style") return "";
  let out = "";
  for (const c of node.children) out += textOf(c);
  if (/^(p|div|li|br|h[1-6]|tr)$/.test(node.name)) out += "\n";
  return out;
}

/** An element's text with its pieces joined by spaces: `<span>150</span><span>g</span>` is "150 g". */
function spacedText(node: ChildNode): string {
  if (node.type === "text") return unwrapped(node.data);
  if (!isElement(node) || node.name === "script" || node.name === "style") return "";
  const parts = node.children.map(spacedText).filter((t) => t.trim() !== "");
  const spaced = parts.length > 1 && node.children.some((c) => c.type !== "text");
  // Pieces side by side are words apart, but punctuation keeps to the word before it ("shaker.").
  const text = spaced
    ? parts.reduce((a, b) => (/^[\s.,;:!?)\]]/.test(b) || /[\s(\[]$/.test(a) ? a + b : `${a} ${b}`))
    : parts.join("");
  // Block elements end a line: a list of steps in one property reads as one step per line.
  return /^(p|div|li|br|h[1-6]|tr|section|article)$/.test(node.name) ? `${text}\n` : text;
}

function rawText(node: Element): string {
  let out = "";
  for (const c of node.children) if (c.type === "text") out += c.data;
  return out;
}

export function parsePage(html: string): PageData {
  const doc: Document = parseDocument(html, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  const meta = new Map<string, string[]>();
  const jsonLd: unknown[] = [];
  const appStates: AppStateText[] = [];
  let brokenJsonLd = 0;
  let canonical: string | null = null;
  let baseHref: string | null = null;
  let title: string | null = null;
  let h1: string | null = null;
  const microdataRoots: Element[] = [];
  const rdfaRoots: Element[] = [];
  for (const el of walk(doc.children)) {
    const a = el.attribs;
    if (el.name === "script" && /ld\+json/i.test(a.type ?? "")) {
      const parsed = parseJsonLoose(rawText(el));
      if (parsed === undefined) brokenJsonLd++;
      else jsonLd.push(parsed);
    } else if (el.name === "script") {
      const state = appStateText(el, rawText(el));
      if (state !== null) appStates.push(state);
    } else if (el.name === "meta") {
      const key = (a.property ?? a.name ?? a.itemprop ?? "").trim().toLowerCase();
      const content = a.content;
      if (key && content !== undefined && !("itemprop" in a && !a.property && !a.name)) {
        const list = meta.get(key) ?? [];
        list.push(content);
        meta.set(key, list);
      }
    } else if (el.name === "link" && /(^|\s)canonical(\s|$)/i.test(a.rel ?? "") && a.href) {
      canonical ??= a.href;
    } else if (el.name === "base" && a.href && baseHref === null) {
      baseHref = a.href;
    } else if (el.name === "title" && title === null) {
      title = textOf(el).trim();
    } else if (el.name === "h1" && h1 === null) {
      h1 = textOf(el).trim();
    }
    if ("itemscope" in a && /(?:schema|data-vocabulary)\.org\/Recipe\b/i.test(a.itemtype ?? ""))
      microdataRoots.push(el);
    else if (RDFA.typeof in a && rdfaTerms(a.typeof).includes("Recipe")) rdfaRoots.push(el);
  }

  const headings = [h1, meta.get("og:title")?.[0] ?? null, title];
  const fromLd = findRecipeInJsonLd(jsonLd, headings);
  const page = { meta, canonical, baseHref, title, brokenJsonLd, document: doc };
  if (fromLd) return { recipe: fromLd, source: "json-ld", ...page };
  const root = outermost(microdataRoots);
  if (root) return { recipe: asSchemaOrg(readMicrodata(root)), source: "microdata", ...page };
  const rdfa = outermost(rdfaRoots);
  if (rdfa) return { recipe: readMicrodata(rdfa, RDFA), source: "microdata", ...page };
  // Last, as the least deliberate: an app's page state holding a schema.org Recipe, read as JSON-LD.
  const states = appStates.map(parseAppState).filter((v) => v !== undefined);
  const fromState = states.length ? findRecipeInJsonLd(recipesInAppState(states), headings) : null;
  if (fromState) return { recipe: fromState, source: "json-ld", ...page };
  return { recipe: null, source: null, ...page };
}

/** The first item not inside another: a recipe's nested items are its parts, not other recipes. */
function outermost(roots: Element[]): Element | undefined {
  return roots.find((r) => !roots.some((o) => o !== r && contains(o, r))) ?? roots[0];
}

function contains(outer: Element, inner: Element): boolean {
  for (let p = inner.parent; p; p = p.parent) if (p === outer) return true;
  return false;
}

function types(o: SchemaObject): string[] {
  const t = o["@type"] ?? o.type;
  const list = Array.isArray(t) ? t : [t];
  return list
    .filter((x): x is string => typeof x === "string")
    .map((x) => x.replace(/^https?:\/\/schema\.org\//i, "").replace(/^schema:/i, ""));
}

function isObj(v: unknown): v is SchemaObject {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

const nameKey = (s: unknown): string =>
  typeof s === "string" ? s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "") : "";

/** How many items a list property holds: a fuller recipe is likelier the page's own than a teaser. */
const itemCount = (v: unknown): number => (Array.isArray(v) ? v.length : v ? 1 : 0);

/**
 * Every object in the JSON-LD, depth first, with an index of `@id`s for resolving references. Of
 * several recipes (a round-up, a main dish with its sauce, a "you may also like" card), the page's own
 * is the one its heading names (`<h1>`, then `og:title`, then `<title>`, which may add the site's
 * name after it); else the most complete.
 */
function findRecipeInJsonLd(blocks: unknown[], headings: Array<string | null>): SchemaObject | null {
  const all: SchemaObject[] = [];
  const byId = new Map<string, SchemaObject>();
  const visit = (v: unknown, depth: number) => {
    if (depth > 12) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (!isObj(v)) return;
    all.push(v);
    if (typeof v["@id"] === "string" && Object.keys(v).length > 1 && !byId.has(v["@id"]))
      byId.set(v["@id"], v);
    for (const [k, x] of Object.entries(v))
      if (
        k === "@graph" ||
        k === "mainEntity" ||
        k === "mainEntityOfPage" ||
        k === "itemListElement" ||
        // A carousel's ListItem holds its recipe under `item`.
        k === "item" ||
        k === "hasPart" ||
        k === "about"
      )
        visit(x, depth + 1);
  };
  for (const b of blocks) visit(b, 0);
  const recipes = all.filter((o) => types(o).some((t) => t.toLowerCase() === "recipe"));
  if (recipes.length === 0) return null;
  // The richest one: pages sometimes carry a stub Recipe beside the full one.
  const score = (o: SchemaObject) =>
    (o.recipeIngredient || o.ingredients ? 2 : 0) + (o.recipeInstructions ? 2 : 0) + (o.name ? 1 : 0);
  const size = (o: SchemaObject) =>
    itemCount(o.recipeIngredient ?? o.ingredients) + itemCount(o.recipeInstructions);
  const keys = headings.map(nameKey).filter(Boolean);
  const named = (o: SchemaObject) => {
    const k = nameKey(o.name);
    return k.length >= 3 && keys.some((h) => h === k || h.startsWith(k)) ? 1 : 0;
  };
  const better = (a: SchemaObject, b: SchemaObject) =>
    recipes.length > 1 &&
    (score(b) - score(a) || (score(b) >= 4 ? named(b) - named(a) : 0) || size(b) - size(a)) > 0;
  const best = recipes.reduce((a, b) => (better(a, b) ? b : a));
  return resolveRefs(best, byId, 0) as SchemaObject;
}

function resolveRefs(v: unknown, byId: Map<string, SchemaObject>, depth: number): unknown {
  if (depth > 6) return v;
  if (Array.isArray(v)) return v.map((x) => resolveRefs(x, byId, depth + 1));
  if (!isObj(v)) return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && typeof v["@id"] === "string" && byId.has(v["@id"]))
    return resolveRefs(byId.get(v["@id"]), byId, depth + 1);
  const out: SchemaObject = {};
  for (const [k, x] of Object.entries(v)) out[k] = k === "@graph" ? x : resolveRefs(x, byId, depth + 1);
  return out;
}

/** The attributes an item is written with: microdata's, or RDFa's (`typeof="Recipe" property="name"`). */
interface ItemSyntax {
  scope: string;
  typeof: string;
  prop: string;
}
const MICRODATA: ItemSyntax = { scope: "itemscope", typeof: "itemtype", prop: "itemprop" };
const RDFA: ItemSyntax = { scope: "typeof", typeof: "typeof", prop: "property" };

/**
 * RDFa's terms without their vocabulary: "schema:Recipe", "http://schema.org/Recipe" and "Recipe"
 * (under `vocab="https://schema.org/"`) are one type. Another vocabulary's terms ("og:title") stay
 * prefixed, so they match no schema.org name.
 */
function rdfaTerms(v: string | undefined): string[] {
  return (v ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => t.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, ""));
}

/** A microdata or RDFa item as a schema object: nested items become objects, repeated props arrays. */
function readMicrodata(root: Element, syntax: ItemSyntax = MICRODATA): SchemaObject {
  const out: SchemaObject = {
    "@type": rdfaTerms(root.attribs[syntax.typeof]),
  };
  const add = (name: string, value: unknown) => {
    const cur = out[name];
    if (cur === undefined) out[name] = value;
    else if (Array.isArray(cur)) cur.push(value);
    else out[name] = [cur, value];
  };
  const visit = (el: Element) => {
    for (const c of el.children) {
      if (!isElement(c)) continue;
      const props = rdfaTerms(c.attribs[syntax.prop]);
      // An ingredient written as an item of its own (data-vocabulary's RecipeIngredient, amount and
      // name apart) is its line of text, as the reader sees it.
      const line = props.some((p) => INGREDIENT_PROP.test(p));
      const scoped = syntax.scope in c.attribs && !line;
      if (props.length) {
        const value = scoped
          ? readMicrodata(c, syntax)
          : syntax === MICRODATA && props.some((p) => INGREDIENT_PROP.test(p))
            ? ingredientValue(c)
            : microdataValue(c);
        for (const p of props) add(p, value);
      }
      if (!scoped) visit(c);
    }
  };
  visit(root);
  return out;
}

/**
 * The properties that hold an ingredient line (schema.org's, its older name, and data-vocabulary.org's);
 * dom.ts reads them too.
 */
export const INGREDIENT_PROP = /^(recipeIngredient|ingredients?)$/;

/** data-vocabulary.org's names for schema.org's (Google's recipe vocabulary before schema.org). */
const DATA_VOCABULARY: Record<string, string> = {
  ingredient: "recipeIngredient",
  photo: "image",
  yield: "recipeYield",
  summary: "description",
  recipeType: "recipeCategory",
};

/** A data-vocabulary.org Recipe with schema.org's property names; a schema.org one as it is. */
function asSchemaOrg(item: SchemaObject): SchemaObject {
  if (!("ingredient" in item || "photo" in item)) return item;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(item)) {
    const name = DATA_VOCABULARY[k] ?? k;
    out[name] ??= v;
  }
  return out;
}
/** How far up from an ingredient property its list item is looked for. */
const ITEM_LEVELS = 4;
/** The most an item's text may add to its ingredient property's: an amount and a unit, not a paragraph. */
const AMOUNT_CHARS = 40;

/**
 * An ingredient property's text, or its list item's when the property marks up only the food
 * (`<li>6 cl <span itemprop="recipeIngredient">Kokoslikör</span></li>`): the item holds this one
 * ingredient and adds an amount to it, where the property alone lost the amount.
 */
function ingredientValue(el: Element): string {
  const own = microdataValue(el);
  if (el.attribs.content !== undefined) return own;
  let item: Element | null = null;
  for (let p = el.parent, i = 0; p && isElement(p) && i < ITEM_LEVELS; p = p.parent, i++) {
    if (p.name === "li") {
      item = p;
      break;
    }
    if (p.name === "ul" || p.name === "ol" || "itemscope" in p.attribs) break;
  }
  if (!item) return own;
  let ingredients = 0;
  for (const d of walk(item.children))
    if ((d.attribs.itemprop ?? "").split(/\s+/).some((p) => INGREDIENT_PROP.test(p))) ingredients++;
  if (ingredients !== 1) return own;
  const food = own.replace(/\s+/g, " ").trim();
  const whole = spacedText(item).replace(/\s+/g, " ").trim();
  return food &&
    whole.length > food.length &&
    whole.length <= food.length + AMOUNT_CHARS &&
    whole.endsWith(food)
    ? whole
    : own;
}

function microdataValue(el: Element): string {
  const a = el.attribs;
  if (a.content !== undefined) return a.content;
  switch (el.name) {
    case "meta":
      return a.content ?? "";
    case "img":
    // AMP pages write their pictures as these, with a src like <img>'s.
    case "amp-img":
    case "amp-anim":
    case "audio":
    case "video":
    case "source":
    case "embed":
    case "iframe": {
      // A lazily loaded picture's src is a data: placeholder until a script swaps the real one in.
      const real = a["data-lazy-src"] ?? a["data-src"];
      return (real && (!a.src || a.src.startsWith("data:")) ? real : a.src) ?? "";
    }
    case "a":
    case "link":
    case "area":
      return a.href ?? "";
    case "time":
      return a.datetime ?? spacedText(el);
    case "data":
    case "meter":
      return a.value ?? spacedText(el);
    default:
      return spacedText(el);
  }
}
