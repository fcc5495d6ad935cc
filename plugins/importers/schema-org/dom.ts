/**
 * Ingredients and steps read from a page's markup, for pages whose schema.org data is missing or worse
 * than what they show (docs/decisions/0151). No rule here names a site: the readers know markup many
 * sites share — recipe-card plugins' class names (WP Recipe Maker, Tasty Recipes, Mediavine Create, Zip
 * Recipes, WPZoom, … all name their containers "…ingredients…"/"…instructions…"), the h-recipe
 * microformat, schema.org `itemprop`s outside a Recipe item — and, last, the way people write a recipe:
 * a heading "Ingredients" (in a dozen languages) followed by a list, a heading "Method" followed by a
 * list or paragraphs.
 */
import type { ChildNode, Document, Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import { oneIngredientEach, unwrapped } from "./wrapped-lines.js";
import { INGREDIENT_PROP } from "./extract.js";

export interface DomGroup {
  /** The group's heading ("For the sauce"), null for the first, unnamed group. */
  title: string | null;
  items: string[];
}

export interface DomList {
  groups: DomGroup[];
  /** Which reader found it: "card", "h-recipe", "itemprop", "item-class", "heading". */
  via: string;
}

export interface DomRecipe {
  ingredients: DomList | null;
  instructions: DomList | null;
}

type Kind = "ingredients" | "instructions";

// ── Words ────────────────────────────────────────────────────────────────────────────────────

/** A heading that opens the ingredients: "Ingredients", "Zutaten für 4 Personen", "INGRÉDIENTS :". */
const INGREDIENT_WORDS =
  "ingredients?|ingredientes|ingr[ée]dients?|ingredienti|ingredi[ëe]nten|ingredienser|ingredienten|ingrediencie|zutaten|zutatenliste|sk[łl]adniki|υλικά|συστατικά|malzemeler|hozzávalók|ainekset|ainesosat|sastojci|suroviny|přísady|ингредиенты|продукты|what you(?:'ll| will)? need|you(?:'ll| will) need|du behöver|benodigdheden|材料|재료";
/** A heading that opens the steps: "Method", "Zubereitung", "Modo de preparo", "Gör så här". */
const INSTRUCTION_WORDS =
  "instructions?|directions?|method|methods|preparation|steps|step[- ]by[- ]step|cooking instructions|how to (?:make|cook)(?: it)?|how to prepare|procedure|zubereitung|anleitung|so wird(?:'s| es) gemacht|pr[ée]paration|[ée]tapes|bereid(?:en|ing(?:swijze)?)|werkwijze|zo maak je het|preparazione|procedimento|preparaci[óo]n|elaboraci[óo]n|modo de prepar(?:o|ação|acao)|tillagning|gör så här|så gör du|fremgangsmåde|fremgangsmåte|slik gjør du|sposób przygotowania|przygotowanie|εκτέλεση|οδηγίες|yapılışı|hazırlanışı|elkészítés|postup|valmistus|приготовление|作り方|만드는 법";
/** Headings that end a recipe's section without being part of it. */
const OTHER_SECTION_WORDS =
  "notes?|tips?|recipe notes|nutrition(?: facts| information)?|nährwerte|tipps?|hinweise?|astuces?|conseils?|suggestions?|variations?|storage|equipment|video|faq|comments?|kommentare|reviews?|related|you may also like|more recipes|share|print";

/**
 * The word first ("Zutaten für 4 Personen", "Elaboración de la crema de calabaza con Thermomix"), or
 * last after a dash or colon ("Apple Pie – The Ingredients").
 */
const heading = (words: string) =>
  new RegExp(
    `^(?:${words})(?![\\p{L}\\p{N}])[^.!?]{0,48}$|^[^.!?]{2,60}[–—:|-]\\s*(?:(?:the|die|der|les|la|le|de|het|los|las|gli|i)\\s+)?(?:${words})$`,
    "iu",
  );
const INGREDIENT_HEADING = heading(INGREDIENT_WORDS);
const INSTRUCTION_HEADING = heading(INSTRUCTION_WORDS);
const OTHER_HEADING = heading(OTHER_SECTION_WORDS);
const BARE_INSTRUCTION_HEADING = new RegExp(`^(?:${INSTRUCTION_WORDS})[\\s:：.]*$`, "iu");

/** "Modo de Preparo", "Method:" — a heading that only says steps follow, and says nothing itself. */
export function isStepsHeading(text: string): boolean {
  return BARE_INSTRUCTION_HEADING.test(text.trim());
}
/** "Step 1", "STEP 2.", "Schritt 3", "1." — a step's number, not a group. */
const STEP_LABEL = /^[\p{L} ]{0,12}\d+[.:)]?$/u;

function headingKind(text: string): Kind | "other" | null {
  const t = text.replace(/[\s:：.*]+$/u, "").trim();
  if (!t || t.length > 80) return null;
  if (INGREDIENT_HEADING.test(t)) return "ingredients";
  if (INSTRUCTION_HEADING.test(t)) return "instructions";
  if (OTHER_HEADING.test(t)) return "other";
  return null;
}

// ── Tree helpers ─────────────────────────────────────────────────────────────────────────────

const isElement = (n: ChildNode): n is Element =>
  n.type === "tag" || n.type === "script" || n.type === "style";

/** Never content: code, forms, navigation and page chrome. */
const SKIP = new Set([
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "button",
  "select",
  "option",
  "textarea",
  "input",
  "iframe",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "figure",
  "picture",
  "video",
  "audio",
  // Stray in a paragraph (pasted from a word processor): no text, and it made the paragraph a container.
  "meta",
  "link",
]);
const INLINE = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "br",
  "cite",
  "code",
  "data",
  "del",
  "dfn",
  "em",
  "font",
  "i",
  "img",
  "ins",
  "kbd",
  "label",
  "mark",
  "q",
  "s",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
  "wbr",
]);
const HEADING_TAG = /^h([1-6])$/;

const skipped = (el: Element): boolean =>
  SKIP.has(el.name) || "hidden" in el.attribs || el.attribs["aria-hidden"] === "true";

const tokenCache = new WeakMap<Element, string[]>();
const NO_TOKENS: string[] = [];

/**
 * An element's class names and id, lower case, words split: a CSS-modules hash dropped and camel case
 * hyphenated, so "Ingredients_ingredientList__DhBO1" reads as "ingredients_ingredient-list".
 */
function tokens(el: Element): string[] {
  const hit = tokenCache.get(el);
  if (hit) return hit;
  const raw = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.trim();
  const out = raw
    ? raw.split(/\s+/).map((t) =>
        t
          .replace(/__(?=[\w-]*[A-Z0-9])[\w-]{5}$/, "")
          .replace(/([a-z])([A-Z])/g, "$1-$2")
          .toLowerCase(),
      )
    : NO_TOKENS;
  tokenCache.set(el, out);
  return out;
}

/** Every element of the page that is content (page chrome, code and forms left out), once per page. */
const elementCache = new WeakMap<Document, Element[]>();
function elementsOf(doc: Document): Element[] {
  let all = elementCache.get(doc);
  if (!all) elementCache.set(doc, (all = [...descendants(doc)]));
  return all;
}

function* descendants(el: Element | Document): Generator<Element> {
  const stack: ChildNode[] = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n) || skipped(n)) continue;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/**
 * Text as read: pieces of inline markup joined as written, blocks and `<br>` as line breaks, and the
 * source's own line ends where they read as breaks (wrapped-lines.ts). With `brOnly`, only `<br>` and
 * headings break lines: an item's blocks side by side (amount | name) are one line.
 */
function textLines(node: ChildNode, brOnly = false): string {
  if (node.type === "text") return brOnly ? node.data.replace(/\s+/g, " ") : unwrapped(node.data);
  if (!isElement(node) || skipped(node)) return "";
  if (node.name === "br") return "\n";
  let out = "";
  let prev: ChildNode | null = null;
  for (const c of node.children) {
    const piece = textLines(c, brOnly);
    // `<span>2</span><span>cups</span>` is two words: markup side by side is not one word.
    if (
      prev &&
      isElement(prev) &&
      isElement(c) &&
      /[\p{L}\p{N})]$/u.test(out) &&
      /^[\p{L}\p{N}(]/u.test(piece)
    )
      out += " ";
    out += piece;
    if (c.type !== "comment") prev = c;
  }
  if (INLINE.has(node.name)) return out;
  return brOnly && !HEADING_TAG.test(node.name) ? ` ${out} ` : `\n${out}\n`;
}

const BULLET = /^[\s•·▪●◦‣∙*–—-]+\s+|^[•·▪●◦‣∙✓✔☐☑□▢■◻◼]\s*/u;

function tidy(s: string): string {
  return s
    .replace(/[\u00a0\u2009\u202f\t]/g, " ")
    .replace(/[\u200b\u00ad\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(BULLET, "")
    .trim();
}

/** An item's text split at its `<br>`s and headings only. */
const brokenLines = (el: Element): string[] => textLines(el, true).split("\n").map(tidy).filter(Boolean);

/** One item's text on one line. */
const oneLine = (el: ChildNode): string => tidy(textLines(el));
/** An element's text split at its line breaks (paragraphs, `<br>`). */
const lines = (el: ChildNode): string[] => textLines(el).split("\n").map(tidy).filter(Boolean);

const hasDescendant = (el: Element, test: (e: Element) => boolean): boolean => {
  for (const d of descendants(el)) if (test(d)) return true;
  return false;
};

// ── Reading one container ────────────────────────────────────────────────────────────────────

/** Class names of group headings inside recipe cards: "wprm-recipe-group-name", "…-subtitle", "…-heading". */
const GROUP_TITLE_CLASS =
  /(group[-_]?(name|title|heading|header)|(^|[-_])(subtitle|subheading|heading|title))$/;

function isGroupTitle(el: Element): boolean {
  if (HEADING_TAG.test(el.name)) return true;
  if (el.name === "li") return false;
  return tokens(el).some((t) => GROUP_TITLE_CLASS.test(t)) && !hasDescendant(el, (d) => d.name === "li");
}

/** Class names of one ingredient or one step ("wprm-recipe-ingredient", "…__ingredient", "recipe-step"). */
const ITEM_CLASS: Record<Kind, RegExp> = {
  ingredients:
    /(^|[-_])(ingredient|zutat|ingrediente)([-_]{1,2}(item|line|row|entry))?$|ingredients[-_]{1,2}(item|line|row|entry)$/,
  instructions:
    /(^|[-_])(step|instruction|direction)([-_]{1,2}(item|line|row|entry))?$|(steps|instructions|directions)[-_]{1,2}(item|line|row|entry)$/,
};

const isItem = (el: Element, kind: Kind): boolean =>
  el.name === "li" ||
  el.name === "tr" ||
  el.name === "dd" ||
  el.attribs.itemprop === "recipeIngredient" ||
  tokens(el).some((t) => ITEM_CLASS[kind].test(t));

/**
 * Groups of items in a recipe card's ingredients or steps container: list items (or rows, or elements
 * named as one ingredient or step), with the headings between them as group titles; without any,
 * repeated blocks or the lines of the text.
 */
function readContainer(root: Element, kind: Kind): DomGroup[] {
  const groups: DomGroup[] = [];
  let title: string | null = null;
  const add = (item: string) => {
    if (!item || headingKind(item) === kind || (kind === "instructions" && STEP_LABEL.test(item))) return;
    const last = groups.at(-1);
    if (!last || title !== null) groups.push({ title, items: [item] });
    else last.items.push(item);
    title = null;
  };
  // A row that holds a group's heading and its lines ("<h4>For dip:</h4><p>1 C strawberries<br>¼ C
  // yogurt…"), or several ingredients a line each: the heading is the group's title, each line an item.
  const addIngredients = (item: Element) => {
    let parts = brokenLines(item);
    const heading = [...descendants(item)].find((d) => HEADING_TAG.test(d.name));
    const named = heading ? oneLine(heading).replace(/\s*:$/, "") : "";
    if (named && parts.length > 1 && parts[0].replace(/\s*:$/, "") === named) {
      title = named;
      parts = parts.slice(1);
    }
    if (oneIngredientEach(parts)) parts.forEach(add);
    else add(parts.join(" "));
  };
  const visit = (el: Element) => {
    for (const c of el.children) {
      if (!isElement(c) || skipped(c)) continue;
      if (isItem(c, kind)) {
        const nested = hasDescendant(c, (d) => isItem(d, kind));
        if (!nested) {
          if (titleItem(c)) title = oneLine(c).replace(/\s*:$/, "");
          else if (kind === "ingredients") addIngredients(c);
          else add(oneLine(c));
          continue;
        }
        // An item holding items is a group: its own words are the title.
        const own = tidy(ownText(c, kind));
        if (own) title = own;
        visit(c);
      } else if (isGroupTitle(c)) {
        const t = oneLine(c);
        if (t && !headingKind(t)) title = t;
      } else visit(c);
    }
  };
  visit(root);
  if (groups.length) return groups;
  const items = repeatedBlocks(root) ?? lines(root);
  return items.length ? [{ title: null, items: items.filter((i) => headingKind(i) !== kind) }] : [];
}

/** Text that sits in one bold or heading element, alone. */
function boldOnly(el: Element): boolean {
  let inner: Element = el;
  for (;;) {
    const kids = inner.children.filter((c) => !(c.type === "text" && !c.data.trim()) && c.type !== "comment");
    if (kids.length !== 1 || !isElement(kids[0])) return false;
    inner = kids[0];
    if (/^(strong|b|h[1-6])$/.test(inner.name)) return true;
  }
}

/** A list item that is a group's heading ("<li><h3>For the dough</h3></li>", "<li><b>Sauce:</b></li>"). */
function titleItem(el: Element): boolean {
  const text = oneLine(el);
  return text.length <= 60 && boldOnly(el) && (/:$/.test(text) || !/^[\d½¼¾⅓⅔⅛]/.test(text));
}

/** An element's text outside the items it holds. */
function ownText(el: Element, kind: Kind): string {
  let out = "";
  for (const c of el.children) {
    if (c.type === "text") out += c.data;
    else if (isElement(c) && !skipped(c) && !isItem(c, kind) && !hasDescendant(c, (d) => isItem(d, kind)))
      out += ` ${textLines(c)} `;
  }
  return out;
}

/** Items written as sibling blocks of one kind (`div.row` × n): the largest such run. */
function repeatedBlocks(root: Element): string[] | null {
  let best: string[] | null = null;
  for (const el of [root, ...descendants(root)]) {
    const kids = el.children.filter((c): c is Element => isElement(c) && !skipped(c) && !INLINE.has(c.name));
    if (kids.length < 2) continue;
    const sig = (e: Element) => `${e.name}.${e.attribs.class ?? ""}`;
    const counts = new Map<string, number>();
    for (const k of kids) counts.set(sig(k), (counts.get(sig(k)) ?? 0) + 1);
    const [top, n] = [...counts].reduce((a, b) => (b[1] > a[1] ? b : a));
    if (n < 2 || n < kids.length / 2 || (best && n <= best.length)) continue;
    const items = kids
      .filter((k) => sig(k) === top)
      .map(oneLine)
      .filter(Boolean);
    if (items.length >= 2 && (!best || items.length > best.length)) best = items;
  }
  return best;
}

// ── Readers ──────────────────────────────────────────────────────────────────────────────────

const count = (groups: DomGroup[]) => groups.reduce((a, g) => a + g.items.length, 0);

const PART =
  "list|lists|container|wrap|wrapper|section|box|block|body|area|group|groups|holder|items|content|text|table";
/** Container class names: "wprm-recipe-ingredients-container", "tasty-recipes-instructions", "ingredients". */
const containerClass = (words: string, singular: string) =>
  new RegExp(
    `^(?:[a-z0-9]+[-_]{1,2})*(?:${words}|(?:${singular})[-_]{1,2}(?:${PART}))(?:[-_]{1,2}(?:${PART}))?$`,
  );
const CONTAINER: Record<Kind, RegExp> = {
  ingredients: containerClass(
    "ingredients|zutaten|ingredientes|ingredienti|ingredienser|ingredienten|skladniki",
    "ingredient|zutat",
  ),
  instructions: containerClass(
    "instructions|directions|method|preparation|steps|zubereitung|preparazione|preparacion|bereiding|elaboracion|procedimento|werkwijze",
    "instruction|direction|step",
  ),
};
/** Recipe-card plugins' own prefixes: their containers come before a theme's look-alikes. */
const CARD_PREFIX =
  /^(wprm-|tasty-recipes|mv-create|zlrecipe|wpzoom|ers|cooked-|yumprint|mpprecipe|wp-block-[a-z]+-recipe|recipe-card)/;

/** Enough to be a list of that kind: two ingredients; a step of some length, not a lone heading. */
function plausible(groups: DomGroup[], kind: Kind): boolean {
  const items = groups.flatMap((g) => g.items);
  if (kind === "ingredients") return items.length >= 2 && items.every((i) => i.length <= 300);
  // One step must read as a sentence, not as a heading ("Step by step instructions").
  if (items.length === 1)
    return (
      /\s/.test(items[0]) &&
      (items[0].length >= 40 || (/[.!]$/.test(items[0]) && items[0].split(/\s+/).length >= 4))
    );
  // Steps are sentences: a list of single words (an index of ingredients, tags) is not a method.
  const words = items.reduce((a, x) => a + x.split(/\s+/).length, 0);
  return items.length >= 1 && items.join(" ").length >= 40 && words >= 4 * items.length;
}

/** Recipe-card plugins and themes: the first container named for the kind that holds a plausible list. */
function byClass(doc: Document, kind: Kind): DomList | null {
  const found: Element[] = [];
  for (const el of elementsOf(doc)) {
    if (el.name === "body" || el.name === "html") continue;
    if (tokens(el).some((t) => CONTAINER[kind].test(t))) found.push(el);
  }
  const card = (el: Element) => tokens(el).some((t) => CARD_PREFIX.test(t));
  // What one step uses ("preparation__step__ingredients" inside a step) is not the recipe's list.
  const inStep = (el: Element) => {
    for (let p = el.parent; p && p.type === "tag"; p = p.parent)
      if (tokens(p).some((t) => ITEM_CLASS.instructions.test(t))) return true;
    return false;
  };
  const candidates = kind === "ingredients" ? found.filter((el) => !inStep(el)) : found;
  for (const el of [...candidates.filter(card), ...candidates.filter((e) => !card(e))]) {
    const same = twins(el).filter((t) => tokens(t).some((x) => CONTAINER[kind].test(x)));
    const groups = [el, ...same].flatMap((c) => readContainer(c, kind));
    if (plausible(groups, kind)) return { groups, via: "card" };
  }
  return null;
}

/** The siblings right after a container that are made the same way: one group each, as some themes write them. */
function twins(el: Element): Element[] {
  const out: Element[] = [];
  const siblings = (el.parent?.children ?? []).filter((c) => !(c.type === "text" && !c.data.trim()));
  for (const c of siblings.slice(siblings.indexOf(el) + 1)) {
    if (!isElement(c) || c.name !== el.name || c.attribs.class !== el.attribs.class) break;
    out.push(c);
  }
  return out;
}

/**
 * The h-recipe microformat: `.p-ingredient` items, `.e-instructions`; or its older form, hRecipe
 * (`.hrecipe` with `.ingredient` items and `.instructions`), which blogs of the 2000s still carry.
 */
function byMicroformat(doc: Document, kind: Kind): DomList | null {
  const root = elementsOf(doc).find((el) => tokens(el).some((t) => t === "h-recipe" || t === "hrecipe"));
  if (!root) return null;
  const classic = !tokens(root).includes("h-recipe");
  const [ingredient, instructions] = classic
    ? ["ingredient", "instructions"]
    : ["p-ingredient", "e-instructions"];
  if (kind === "ingredients") {
    const items = [...descendants(root)].filter((el) => tokens(el).includes(ingredient)).map(oneLine);
    const groups = items.length ? [{ title: null, items: items.filter(Boolean) }] : [];
    return plausible(groups, kind) ? { groups, via: "h-recipe" } : null;
  }
  const el = [...descendants(root)].find((e) => tokens(e).includes(instructions));
  const groups = el ? readContainer(el, kind) : [];
  return plausible(groups, kind) ? { groups, via: "h-recipe" } : null;
}

/** schema.org properties marked up without a Recipe item around them. */
function byItemprop(doc: Document, kind: Kind): DomList | null {
  const props = kind === "ingredients" ? INGREDIENT_PROP : /^(recipeInstructions|instructions)$/;
  const els = elementsOf(doc).filter(
    (el) => el.name !== "meta" && (el.attribs.itemprop ?? "").split(/\s+/).some((p) => props.test(p)),
  );
  // Pages often carry the same text twice (a print copy): once is enough.
  const seen = new Set<string>();
  const unique = els.filter((el) => {
    const t = oneLine(el);
    if (!t || seen.has(t)) return false;
    seen.add(t);
    return true;
  });
  if (unique.length === 0) return null;
  let groups: DomGroup[];
  if (unique.length === 1) groups = readContainer(unique[0], kind);
  else if (kind === "ingredients") groups = [{ title: null, items: unique.map(oneLine) }];
  else groups = [{ title: null, items: unique.flatMap((el) => lines(el)) }];
  return plausible(groups, kind) ? { groups, via: "itemprop" } : null;
}

/**
 * Ingredient rows named as such ("…__ingredient", "ingredient-row") under a parent whose own name says
 * nothing a container reader knows ("bb-recipe-calculator__content"): the parent with the most of them
 * is the list. Ingredients only: "step" names wizards and checkouts as often as methods.
 */
function byItemClass(doc: Document, kind: Kind): DomList | null {
  if (kind !== "ingredients") return null;
  let best: Element | null = null;
  let most = 1;
  for (const el of elementsOf(doc)) {
    let n = 0;
    for (const c of el.children)
      if (isElement(c) && c.name !== "li" && tokens(c).some((t) => ITEM_CLASS[kind].test(t))) n++;
    if (n > most) [best, most] = [el, n];
  }
  const groups = best ? readContainer(best, kind) : [];
  return plausible(groups, kind) ? { groups, via: "item-class" } : null;
}

// ── Headings ─────────────────────────────────────────────────────────────────────────────────

/** The page as a flat run of blocks: headings, list items and paragraphs, in reading order. */
type Block =
  | { type: "heading"; el: Element; level: number; text: string }
  | { type: "item"; el: Element; list: Element | null; text: string; title: boolean }
  | {
      type: "para";
      el: Element | null;
      parent: Element | null;
      text: string;
      lines: string[];
      bold: boolean;
    };

const isBlockish = (el: Element) => !INLINE.has(el.name);

const blockCache = new WeakMap<Document, Block[]>();

function blocksOf(doc: Document): Block[] {
  const hit = blockCache.get(doc);
  if (hit) return hit;
  const out: Block[] = [];
  blockCache.set(doc, out);
  const visit = (node: ChildNode, parent: Element | null) => {
    if (node.type === "text") {
      const text = tidy(node.data);
      if (text) out.push({ type: "para", el: null, parent, text, lines: [text], bold: false });
      return;
    }
    if (!isElement(node) || skipped(node)) return;
    const el = node;
    const h = HEADING_TAG.exec(el.name);
    if (h) {
      out.push({ type: "heading", el, level: Number(h[1]), text: oneLine(el) });
      return;
    }
    if (el.name === "li" || el.name === "dd" || el.name === "tr") {
      const text = oneLine(el);
      if (text) out.push({ type: "item", el, list: el.parent as Element | null, text, title: titleItem(el) });
      return;
    }
    const leaf = !el.children.some((c) => isElement(c) && !skipped(c) && isBlockish(c));
    if (leaf) {
      const text = oneLine(el);
      if (!text) return;
      const bold = boldOnly(el) && text.length <= 80;
      out.push({ type: "para", el, parent: el.parent as Element | null, text, lines: lines(el), bold });
      return;
    }
    for (const c of el.children) visit(c, el);
  };
  const body = (doc.children.find((c) => isElement(c) && c.name === "html") as Element | undefined) ?? doc;
  for (const c of body.children) visit(c, null);
  return out;
}

const made = (el: Element | null): string => (el ? `${el.name}.${el.attribs.class ?? ""}` : "");

/** The section a heading opens: list items (with sub-headings as group titles) or paragraphs. */
function readSection(blocks: Block[], at: number, kind: Kind): { groups: DomGroup[]; end: number } {
  const head = blocks[at];
  const level = head.type === "heading" ? head.level : 7;
  const groups: DomGroup[] = [];
  let mode: "list" | "para" | null = null;
  let title: string | null = null;
  let parent: Element | null | undefined;
  let misses = 0;
  const paras: Array<Element | null> = [];
  const add = (items: string[]) => {
    const last = groups.at(-1);
    if (!last || title !== null) groups.push({ title, items: [...items] });
    else last.items.push(...items);
    title = null;
  };
  let i = at + 1;
  for (; i < blocks.length && i < at + 400; i++) {
    const b = blocks[i];
    const sectionWord = headingKind(b.text);
    if (b.type === "heading") {
      if (sectionWord || b.level <= Math.min(level, 3) || (level < 7 && b.level <= level)) break;
      if (!b.text || STEP_LABEL.test(b.text)) continue;
      title = b.text;
      continue;
    }
    if (b.type === "para" && sectionWord && (b.bold || b.text.length <= 40)) break;
    if (b.type === "item") {
      if (mode === "para") break;
      mode = "list";
      if (b.title) title = b.text.replace(/\s*:$/, "");
      else add([b.text]);
      continue;
    }
    // A paragraph.
    if (mode === "list") {
      // A short line just before more items names the next group; anything else ends the lists.
      const next = blocks[i + 1];
      if (b.text.length <= 60 && next?.type === "item") {
        title = b.text;
        continue;
      }
      break;
    }
    if (STEP_LABEL.test(b.text)) continue;
    // A short line before the first list counts servings ("For 6 people", "Serves 4") and is passed
    // over, or is an ingredient of its own ("1 ball of mozzarella"), or names the first group.
    if (mode === null && b.text.length <= 60 && blocks[i + 1]?.type === "item") {
      if (SERVINGS.test(b.text)) continue;
      if (/^[\d½¼¾⅓⅔⅛]/.test(b.text)) add([b.text]);
      else title = b.text.replace(/\s*:$/, "");
      continue;
    }
    if (b.bold || (b.text.length <= 60 && /:$/.test(b.text))) {
      if (groups.length || mode === null) title = b.text.replace(/\s*:$/, "");
      continue;
    }
    // Paragraph steps are siblings, or each in a wrapper of one make; a block elsewhere (a newsletter
    // box, an ad) is passed over.
    if (parent !== undefined && b.parent !== parent && made(b.parent) !== made(parent)) {
      if (++misses > 3) break;
      continue;
    }
    misses = 0;
    parent = b.parent;
    mode = "para";
    add(kind === "ingredients" ? b.lines : [b.text]);
    paras.push(b.el);
  }
  // Every step in one paragraph, a `<br>` apart: a step a line. Among paragraphs, a line after a
  // `<br>` is more of its step (a remark, a tip).
  const split = kind === "instructions" && paras.length === 1 ? sentencesByBr(paras[0]) : null;
  if (split && groups.length === 1) groups[0].items = split;
  return { groups: groups.filter((g) => g.items.length), end: i };
}

/**
 * A paragraph of steps a `<br>` apart ("Heat the oven.<br>Rub in the butter.<br>Bake."): its lines,
 * when every one is a sentence of its own; a line that runs on into the next is the page's wrapping
 * of one step, and the paragraph stays whole.
 */
function sentencesByBr(el: Element | null): string[] | null {
  if (!el?.children.some((c) => isElement(c) && c.name === "br")) return null;
  const parts = brokenLines(el);
  const sentence = (x: string) => /[.!?)]$/u.test(x) && x.split(/\s+/).length >= 3;
  return parts.length >= 2 && parts.every(sentence) ? parts : null;
}

/** "For 6 people", "Serves 4", "Zutaten für 2 Portionen", "Pour 4 personnes". */
const SERVINGS =
  /\d.*\b(people|persons?|servings?|portions?|portionen|personen|personnes|porzioni|porciones|porções|pers)\b|\b(serves|makes|yields?|für|for|pour|per|para|voor)\s+\d/iu;

function byHeading(
  blocks: Block[],
  kind: Kind,
  after = -1,
): { list: DomList; at: number; end: number } | null {
  const starts = blocks
    .map((b, i) => [b, i] as const)
    .filter(
      ([b]) =>
        (b.type === "heading" || (b.type === "para" && (b.bold || b.text.length <= 40))) &&
        headingKind(b.text) === kind,
    );
  const ordered = [...starts.filter(([, i]) => i > after), ...starts.filter(([, i]) => i <= after)];
  for (const [, i] of ordered) {
    const { groups, end } = readSection(blocks, i, kind);
    if (plausible(groups, kind)) return { list: { groups, via: "heading" }, at: i, end };
  }
  return null;
}

/**
 * Steps under a heading that does not say so ("Recipe", the dish's name): the first ordered list soon
 * after the ingredients — an ordered list there is the method.
 */
function orderedListAfter(blocks: Block[], from: number): DomList | null {
  for (let i = from; i < blocks.length && i < from + 6; i++) {
    const b = blocks[i];
    if (b.type !== "item") continue;
    if (b.list?.name !== "ol") return null;
    const items: string[] = [];
    for (let j = i; j < blocks.length; j++) {
      const c = blocks[j];
      if (c.type !== "item" || c.list !== b.list) break;
      items.push(c.text);
    }
    const groups = [{ title: null, items }];
    return plausible(groups, "instructions") ? { groups, via: "heading" } : null;
  }
  return null;
}

/** The fewest paragraphs read as a method when nothing names them so. */
const UNNAMED_STEPS = 2;

/**
 * Steps with no heading and no list at all: the paragraphs that follow the ingredients, in the same
 * container ("Ingredients", its list, then one paragraph per step, as a shop's blog writes a recipe).
 * Read only when nothing else on the page gave the steps; two sentences at least.
 */
function paragraphsAfter(blocks: Block[], end: number): DomList | null {
  const first = blocks[end];
  if (!first || first.type !== "para" || end === 0) return null;
  const { groups } = readSection(blocks, end - 1, "instructions");
  const items = groups.flatMap((g) => g.items);
  if (items.length < UNNAMED_STEPS || !items.every((x) => /\p{L}/u.test(x) && x.split(/\s+/).length >= 4))
    return null;
  return plausible(groups, "instructions") ? { groups, via: "heading" } : null;
}

// ── The page ─────────────────────────────────────────────────────────────────────────────────

const lastWord = (s: string): string => s.toLowerCase().match(/[\p{L}\p{N}]+(?=[^\p{L}\p{N}]*$)/u)?.[0] ?? "";

/**
 * A list shown two or three times, once per unit system ("85 g pecans" … then "3 oz pecans" …, often
 * under the same group headings again): the first is kept. Told by copies of one length whose lines
 * end in the same word, four in five at least, and that differ somewhere.
 */
export function dropUnitRepeat(list: DomList): DomList {
  const { groups } = list;
  const flat = (gs: DomGroup[]) => gs.flatMap((g) => g.items);
  const copies = (a: string[], b: string[]) =>
    a.length >= 3 &&
    a.length === b.length &&
    a.filter((x, i) => lastWord(x) !== "" && lastWord(x) === lastWord(b[i])).length >= 0.8 * a.length &&
    a.some((x, i) => x !== b[i]);
  for (const k of [2, 3]) {
    if (groups.length >= k && groups.length % k === 0) {
      const n = groups.length / k;
      const parts = Array.from({ length: k }, (_, j) => groups.slice(j * n, (j + 1) * n));
      const sameShape = parts.every((p) =>
        p.every((g, i) => g.title === parts[0][i].title && g.items.length === parts[0][i].items.length),
      );
      if (sameShape && parts.slice(1).every((p) => copies(flat(parts[0]), flat(p))))
        return { ...list, groups: parts[0] };
    }
    const items = flat(groups);
    if (groups.every((g) => g.title === null) && items.length % k === 0) {
      const n = items.length / k;
      const parts = Array.from({ length: k }, (_, j) => items.slice(j * n, (j + 1) * n));
      if (parts.slice(1).every((p) => copies(parts[0], p)))
        return { ...list, groups: [{ title: null, items: parts[0] }] };
    }
  }
  return list;
}

/** What the page's markup says its ingredients and steps are, by the first reader that finds them. */
export function readDom(doc: Document): DomRecipe {
  const found = readLists(doc);
  // A page drawn by a script may give its recipe in <noscript> only: read there what the page lacks.
  if (!found.ingredients || !found.instructions) {
    const fallback = noscriptContent(doc);
    if (fallback) {
      const more = readLists(fallback);
      found.ingredients ??= more.ingredients;
      found.instructions ??= more.instructions;
    }
  }
  return {
    ingredients: found.ingredients && dropUnitRepeat(found.ingredients),
    instructions: found.instructions,
  };
}

/** What the page's <noscript> elements hold, as a page of its own; null when they hold no markup. */
function noscriptContent(doc: Document): Document | null {
  const children: ChildNode[] = [];
  const stack: ChildNode[] = [...doc.children];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (n.name === "noscript") children.push(...n.children);
    else stack.push(...n.children);
  }
  if (!children.some(isElement)) return null;
  // A page around the same nodes: read, never changed, so their parents stay the real page's.
  const page = parseDocument("");
  page.children = children;
  return page;
}

function readLists(doc: Document): DomRecipe {
  const first = (kind: Kind) =>
    byClass(doc, kind) ?? byMicroformat(doc, kind) ?? byItemprop(doc, kind) ?? byItemClass(doc, kind);
  let ingredients = first("ingredients");
  let instructions = first("instructions");
  if (!ingredients || !instructions) {
    const blocks = blocksOf(doc);
    const ing = ingredients ? null : byHeading(blocks, "ingredients");
    ingredients ??= ing?.list ?? null;
    instructions ??=
      byHeading(blocks, "instructions", ing?.at ?? -1)?.list ??
      (ing ? (orderedListAfter(blocks, ing.end) ?? paragraphsAfter(blocks, ing.end)) : null);
  }
  return { ingredients, instructions };
}

/** Every item of a list, groups flattened. */
export function flatItems(list: DomList | null): string[] {
  return list ? list.groups.flatMap((g) => g.items) : [];
}

export { count as domItemCount };

// ── Times and servings ───────────────────────────────────────────────────────────────────────

export interface DomFacts {
  totalTime: string | null;
  prepTime: string | null;
  cookTime: string | null;
  yields: string | null;
}

const FACT_LABELS: Array<[keyof DomFacts, RegExp]> = [
  [
    "totalTime",
    /^(total(?: time)?|time|ready in|gesamtzeit|totale tijd|totaal|temps total|durée totale|tiempo total|tempo total|tempo totale|total tid|tid totalt|samlet tid|czas całkowity|toplam süre)$/iu,
  ],
  [
    "prepTime",
    /^(prep(?:aration)?(?: time)?|vorbereitung(?:szeit)?|arbeitszeit|voorbereiding(?:stijd)?|temps de préparation|tiempo de preparación|tempo de preparo|tempo di preparazione|förberedelse(?:tid)?|arbetstid)$/iu,
  ],
  [
    "cookTime",
    /^(cook(?:ing)? time|bak(?:e|ing) time|kochzeit|backzeit|garzeit|kooktijd|baktijd|temps de cuisson|cuisson|tiempo de cocción|tempo de cozimento|tempo di cottura|tillagningstid|koketid)$/iu,
  ],
  [
    "yields",
    /^(servings?|serves|portions?|portionen|porties|personen|yields?|makes|porzioni|porciones|porções|rendimento|rinde|portioner|antal(?: portioner)?|adag|μερίδες|porcje|porsiyon|annokset|porce)$/iu,
  ],
];

function fact(label: string): keyof DomFacts | null {
  const l = label.replace(/[\s:：]+$/u, "").trim();
  for (const [key, re] of FACT_LABELS) if (re.test(l)) return key;
  return null;
}

/** A value for a fact: a duration has a digit, servings start with one. */
const factValue = (key: keyof DomFacts, v: string): string | null => {
  const t = v.trim();
  if (!/\d/.test(t) || t.length > 40) return null;
  if (key === "yields" && !/^\d/.test(t)) return null;
  return t;
};

/**
 * Times and servings a page shows as label and value ("TOTAL TIME: 40 Min", "Serves 2 | Total time:
 * 15 minutes", `<dt>Totale tijd</dt><dd>20 minuten</dd>`, "Makes 6 servings"), and the servings an
 * ingredients heading counts ("Zutaten für 4 Personen"), for pages whose schema.org data does not give
 * them. The first of each wins.
 */
export function readFacts(doc: Document): DomFacts {
  const out: DomFacts = { totalTime: null, prepTime: null, cookTime: null, yields: null };
  const blocks = blocksOf(doc);
  const set = (key: keyof DomFacts, value: string) => {
    const v = factValue(key, value);
    if (v && out[key] === null) out[key] = v;
  };
  for (let i = 0; i < blocks.length; i++) {
    const text = blocks[i].text;
    if (text.length > 200) continue;
    // A table of labels over values ("Prep time | Cook time | Yields" above "15 minutes | 0 minutes |
    // 4 servings"): each column's label takes the cell below it.
    const columns = tableColumns(blocks[i], blocks[i + 1]);
    if (columns) {
      for (const [label, value] of columns) {
        const key = fact(label);
        if (key) set(key, value);
      }
      continue;
    }
    // The count in the ingredients' heading: "Ingredients for 5 (small) servings", "Zutaten für 4 Personen".
    if (headingKind(text) === "ingredients" && SERVINGS.test(text)) {
      const count = text.slice(Math.max(0, text.search(/\d/)));
      // A count of something ("4 Personen", "4–6 people"), not a size ("for a 9x13 pan").
      if (/^\d+(?:[.,]\d+)?(?:\s*[-–]\s*\d+)?\s+[\p{L}(]/u.test(count)) set("yields", count);
    }
    const whole = fact(text);
    // A label alone: its value is the next block ("Total Time" | "30 minutes").
    if (whole && blocks[i + 1]) {
      set(whole, blocks[i + 1].text);
      continue;
    }
    for (const seg of text.split(/\s+[|•·]\s+/)) {
      const m = /^(.{2,30}?)\s*(?:[:：]\s*|\s(?=\d))(.+)$/u.exec(seg.trim());
      const key = m && fact(m[1]);
      if (key) set(key, m[2]);
    }
  }
  return out;
}

/** The cells of a table row and the row after it, paired by column, when both have the same count. */
function tableColumns(row: Block, next: Block | undefined): Array<[string, string]> | null {
  if (row.type !== "item" || row.el.name !== "tr" || next?.type !== "item" || next.el.name !== "tr")
    return null;
  const cells = (tr: Element) =>
    tr.children
      .filter((c): c is Element => isElement(c) && (c.name === "th" || c.name === "td"))
      .map(oneLine);
  const labels = cells(row.el);
  // A header row has labels only; rows of "label | value" are read one by one.
  if (labels.length < 2 || labels.some((l) => /\d/.test(l))) return null;
  const values = cells(next.el);
  if (labels.length !== values.length) return null;
  return labels.map((l, i) => [l, values[i]]);
}

/** Words in an image's class, id or alt text that say it shows the dish. */
const DISH_IMAGE = /\b(recipe|dish|completed|finished)\b/i;
/** A site's stand-in shown while the picture loads or when a recipe has none: no picture of this dish. */
const STAND_IN_IMAGE = /fallback|placeholder|no[-_]?(image|img|photo)|default[-_]?(image|img|photo|recipe)/i;

/** A recipe card's box for its picture: "wprm-recipe-image", "tasty-recipes-image", "recipe-card-image". */
const CARD_IMAGE = /(^|[-_])recipes?[-_]+(?:card[-_]+)?(image|img|photo|picture)([-_]|$)/;
/** How far up from an image its card's picture box is looked for. */
const CARD_IMAGE_LEVELS = 3;

/** Where a lazily loaded image really is: its `src` is a placeholder until a script swaps it in. */
function imageSource(el: Element): string | null {
  const a = el.attribs;
  const real = a["data-lazy-src"] ?? a["data-src"] ?? a["data-original"];
  if (real && (!a.src || a.src.startsWith("data:"))) return real;
  return a.src || null;
}

function inCardImageBox(el: Element): boolean {
  let p = el.parent;
  for (let i = 0; i < CARD_IMAGE_LEVELS && p && isElement(p); i++, p = p.parent)
    if (tokens(p).some((t) => CARD_IMAGE.test(t))) return true;
  return false;
}

/**
 * The picture of the dish in the page's content, for a page that names none in its schema.org data or
 * meta tags: the first image whose class, id or alt text says it is the recipe's (`recipe_image`,
 * "Photograph of the completed recipe"), or that sits in a recipe card's picture box (WP Recipe Maker's
 * and Tasty Recipes' cards name the box, not the image), unless its address says it is a stand-in
 * ("recipeImgFallback"). Its address as written; null when no image says so.
 */
export function dishImage(doc: Document): string | null {
  for (const el of elementsOf(doc)) {
    if (el.name !== "img" && el.name !== "amp-img") continue;
    const src = imageSource(el);
    if (!src || STAND_IN_IMAGE.test(src)) continue;
    if (
      tokens(el).some((t) => /(^|[-_])recipe([-_]|$)/.test(t)) ||
      DISH_IMAGE.test(el.attribs.alt ?? "") ||
      inCardImageBox(el)
    )
      return src;
  }
  return null;
}

/** A recipe card's name: "wprm-recipe-name", "tasty-recipes-title", "recipe-card-title". */
const CARD_NAME = /(^|[-_])recipes?[-_]+(?:card[-_]+)?(name|title)$/;

/**
 * The name a recipe card gives its recipe, where the page's own heading may be a post's headline or
 * missing. Not a link's text: a card that links its title elsewhere is a teaser for another recipe.
 */
export function cardName(doc: Document): string | null {
  for (const el of elementsOf(doc)) {
    if (el.name === "a" || !tokens(el).some((t) => CARD_NAME.test(t))) continue;
    let linked = false;
    for (let p = el.parent; p && isElement(p) && !linked; p = p.parent) linked = p.name === "a";
    if (linked || hasDescendant(el, (d) => d.name === "a" || d.name === "li")) continue;
    const text = oneLine(el);
    if (text && text.length <= 120) return text;
  }
  return null;
}

/** The page's own title: its first top-level heading outside the page chrome. */
export function pageHeading(doc: Document): string | null {
  for (const el of elementsOf(doc)) if (el.name === "h1") return oneLine(el) || null;
  return null;
}
