/**
 * One recipe file: YAML front matter for metadata, a Markdown body for what a person writes
 * (docs/recipe-format.md). A canonical file read and written back is byte-identical.
 */
import type { RecipeDoc, Vocabulary } from "../doc.js";
import { parseBody, serializeBody } from "./body.js";
import { readFrontMatter, writeFrontMatter, type FrontMatter } from "./front-matter.js";
import { metadataEntries, readMetadata } from "./metadata.js";

export { RecipeFileError } from "./errors.js";

/**
 * Reads a recipe file. Throws RecipeFileError (with a line) when the front matter is not safe, valid YAML
 * or holds a value of the wrong kind; the body never fails: a line the grammar cannot read becomes a note.
 * A file without `name` takes a leading `# Heading`, else "" (the store names it after the file).
 */
export function parseRecipeFile(text: string, vocab: Vocabulary): RecipeDoc {
  return recipeFrom(readFrontMatter(normaliseText(text)), vocab);
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

/** Writes a recipe file in canonical form. */
export function serializeRecipeFile(doc: RecipeDoc, vocab: Vocabulary): string {
  return writeFrontMatter(metadataEntries(doc)) + serializeBody(doc, vocab);
}
