/**
 * One recipe file: YAML front matter for metadata, a Markdown body for what a person writes
 * (docs/recipe-format.md). A canonical file read and written back is byte-identical.
 */
import type { RecipeDoc, Vocabulary } from "../doc.js";
import { parseBody, serializeBody } from "./body.js";
import { readFrontMatter, writeFrontMatter, type FrontMatter } from "./front-matter.js";
import { canonicalKey, metadataEntries, readMetadata } from "./metadata.js";
import { carryComments, frontMatterComments } from "./comments.js";
import type { Document } from "yaml";

import { RecipeFileError } from "./errors.js";

export { RecipeFileError };

/**
 * Reads a recipe file. Throws RecipeFileError (with a line) when the front matter is not safe, valid YAML
 * or holds a value of the wrong kind; the body never fails: a line the grammar cannot read becomes a note.
 * A file without `name` takes a leading `# Heading`, else "" (the store names it after the file).
 */
export function parseRecipeFile(text: string, vocab: Vocabulary): RecipeDoc {
  refuseConflictMarkers(text);
  return recipeFrom(readFrontMatter(normaliseText(text)), vocab);
}

const CONFLICT = /^<{7}(?: .*)?\r?$[\s\S]*?^>{7}(?: .*)?\r?$/m;

/**
 * A merge git could not finish leaves both sides in the file between `<<<<<<<` and `>>>>>>>` lines.
 * Read as a recipe, the markers become ingredients or steps, and the next save writes them as list items
 * git no longer sees: the file is broken until a person settles the merge, as in the front matter.
 */
export function refuseConflictMarkers(text: string): void {
  if (!text.includes("<<<<<<<")) return;
  const m = CONFLICT.exec(text);
  if (!m) return;
  const line = text.slice(0, m.index).split("\n").length;
  throw new RecipeFileError(
    "an unfinished git merge (conflict markers <<<<<<< … >>>>>>>): settle it, then save",
    line,
  );
}

/** Hand edits on Windows: a BOM and CRLF line ends read like the canonical file. */
export function normaliseText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes("\r") ? noBom.replace(/\r\n?/g, "\n") : noBom;
}

/** The recipe from its read front matter and the body after it (however the front matter was read). */
export function recipeFrom(fm: FrontMatter, vocab: Vocabulary): RecipeDoc {
  const meta = readMetadata(fm);
  const body = parseBody(fm.body, vocab, { takeTitle: meta.name === null });
  return {
    ...meta,
    name: meta.name ?? body.title ?? "",
    description: body.description,
    ingredients: body.ingredients,
    instructions: body.instructions,
    notes: body.notes,
  };
}

/**
 * Writes a recipe file in canonical form. `previousText`, the file being replaced, lends its front
 * matter's comments (comments.ts).
 */
export function serializeRecipeFile(doc: RecipeDoc, vocab: Vocabulary, previousText?: string): string {
  const previous = previousText === undefined ? null : frontMatterComments(normaliseText(previousText));
  const carry = previous ? (out: Document) => carryComments(previous, out, canonicalKey) : undefined;
  return writeFrontMatter(metadataEntries(doc), carry) + serializeBody(doc, vocab);
}
