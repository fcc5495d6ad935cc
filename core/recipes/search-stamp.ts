/**
 * What a recipe's search entry is made from, as one number: the file's bytes (their sha256; not the
 * mtime, so a restored backup or a checkout of the same bytes keeps its entries, decision 0199) and
 * the vocabulary its ingredient lines were read with, which give its ingredient texts, and
 * the entry's own searched values (name, description, the names of its tags, categories, tools and
 * foods, which also depend on the group's organizers and foods). A group's saved search index keeps
 * each recipe's stamp, so a start can tell which recipes to index again (decision 0196).
 *
 * Two 32-bit hashes (FNV-1a and a multiply-xorshift) combined into 53 bits: two different inputs share
 * a stamp about once in 10^16 comparisons.
 */
import { crc32 } from "node:zlib";
import type { RecipeIndexEntry } from "../query/attributes.js";
import { ListedRecipe } from "./listed-recipe.js";
import { cacheFormat } from "./store/index-cache.js";
import type { RecipeEntry } from "./store/types.js";

/**
 * What a saved search index depends on besides the search code (search/index-file.ts): the recipe
 * reader (the warm-start cache's format), how an entry gives its ingredient texts, and this stamp.
 */
export function searchFileFormat(): string {
  const texts = Object.getOwnPropertyDescriptor(ListedRecipe.prototype, "ingredientTexts")?.get;
  return `${cacheFormat()}:${(crc32(`${String(texts)}\u0000${String(entryStamp)}`) >>> 0).toString(16)}`;
}

export function entryStamp(e: RecipeEntry, r: RecipeIndexEntry): number {
  const h = new StampHash();
  h.feed(e.file.hash);
  h.feed(e.vocabularyVersion);
  h.feed(r.name ?? "");
  h.feed(r.description ?? "");
  for (const list of [r.tags, r.recipeCategory, r.tools, r.foods]) {
    h.feed(String(list?.length ?? -1));
    for (const x of list ?? []) h.feed(x.name);
  }
  return h.value();
}

class StampHash {
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  feed(s: string): void {
    let { a, b } = this;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // A separator after each string, so ["ab", "c"] and ["a", "bc"] differ.
    a = Math.imul(a ^ 0xffff, 0x01000193);
    b = Math.imul(b ^ 0xffff, 0x5bd1e995);
    this.a = a;
    this.b = b ^ (b >>> 15);
  }

  value(): number {
    return (this.a >>> 0) * 2 ** 21 + ((this.b >>> 0) & 0x1fffff);
  }
}
