/**
 * YAML comments a person wrote in a recipe's front matter, carried into the file Larder writes next.
 * The writer builds the front matter from the recipe (canonical keys, canonical order), so without this
 * a save through the app would drop every comment: a lost hand edit (ARCHITECTURE invariant 1).
 *
 * A comment stays with what it was written beside: a key (matched by name, or by its canonical name when
 * the file used another spelling), a list item (matched by value) or a nested key. A comment whose key or
 * item is gone is kept at the end of the front matter rather than dropped.
 */
import {
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Document,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { readFrontMatter } from "./front-matter.js";

type Commented = Pick<Node, "commentBefore" | "comment" | "spaceBefore">;

/** The parsed front matter of `text` when it may hold a comment; null when it has none or does not parse. */
export function frontMatterComments(text: string): Document.Parsed | null {
  if (!text.startsWith("---")) return null;
  const close = text.indexOf("\n---", 3);
  const hash = text.indexOf("#");
  if (close === -1 || hash === -1 || hash > close) return null;
  try {
    return readFrontMatter(text).yaml?.() ?? null;
  } catch {
    // A file that does not read is never written over (the store refuses), so it has nothing to carry.
    return null;
  }
}

/** Copies `from`'s comments onto the matching nodes of `to`; `canonical` folds a key as the reader does. */
export function carryComments(from: Document, to: Document, canonical: (key: string) => string): void {
  const leftover: string[] = [];
  to.commentBefore = from.commentBefore ?? null;
  // The parser keeps a document comment apart from the first key only when a blank line follows it.
  if (from.commentBefore && isNode(to.contents)) to.contents.spaceBefore = true;
  if (isMap(from.contents) && isMap(to.contents)) {
    copyOwn(from.contents, to.contents);
    carryMap(from.contents, to.contents, leftover, canonical);
  } else collect(from.contents, leftover);
  const end = [from.comment, ...leftover].filter((c): c is string => !!c);
  to.comment = end.length > 0 ? end.join("\n") : null;
}

function copyOwn(from: Commented, to: Commented): void {
  if (from.commentBefore) to.commentBefore = from.commentBefore;
  if (from.comment) to.comment = from.comment;
  if (from.spaceBefore) to.spaceBefore = true;
}

const keyText = (key: unknown): string | null =>
  isScalar(key) ? String(key.value) : typeof key === "string" ? key : null;

function carryMap(
  from: YAMLMap,
  to: YAMLMap,
  leftover: string[],
  canonical: (key: string) => string = (k) => k,
): void {
  const targets = new Map<string, (typeof to.items)[number]>();
  for (const pair of to.items) {
    const k = keyText(pair.key);
    if (k !== null) targets.set(k, pair);
  }
  for (const pair of from.items) {
    const k = keyText(pair.key);
    const target = k === null ? undefined : (targets.get(k) ?? targets.get(canonical(k)));
    if (!target) {
      collect(pair, leftover);
      continue;
    }
    if (isNode(pair.key) && isNode(target.key)) copyOwn(pair.key, target.key);
    carryNode(pair.value, target.value, leftover);
  }
}

function carryNode(from: unknown, to: unknown, leftover: string[]): void {
  if (!isNode(from)) return;
  if (!isNode(to)) {
    collect(from, leftover);
    return;
  }
  copyOwn(from, to);
  if (isMap(from) && isMap(to)) carryMap(from, to, leftover);
  else if (isSeq(from) && isSeq(to)) carrySeq(from, to, leftover);
  else if (isCollection(from)) for (const item of from.items) collect(item, leftover);
}

function carrySeq(from: YAMLSeq, to: YAMLSeq, leftover: string[]): void {
  const used = new Set<number>();
  const same = (a: unknown, b: unknown): boolean =>
    JSON.stringify(isNode(a) ? a.toJSON() : a) === JSON.stringify(isNode(b) ? b.toJSON() : b);
  for (const item of from.items) {
    if (!hasComment(item)) continue;
    const at = to.items.findIndex((t, i) => !used.has(i) && same(item, t));
    if (at === -1) {
      collect(item, leftover);
      continue;
    }
    used.add(at);
    carryNode(item, to.items[at], leftover);
    // A flow list (`[a, b]`) with a comment per item is written across lines anyway: block style reads better.
    to.flow = false;
  }
}

function hasComment(node: unknown): boolean {
  const found: string[] = [];
  collect(node, found);
  return found.length > 0;
}

/** Every comment in `node`, in document order. */
function collect(node: unknown, out: string[]): void {
  if (isPair(node)) {
    collect(node.key, out);
    collect(node.value, out);
    return;
  }
  if (!isNode(node)) return;
  visit(node, {
    Node(_key, n) {
      if (n.commentBefore) out.push(n.commentBefore);
      if (n.comment) out.push(n.comment);
    },
  });
}
