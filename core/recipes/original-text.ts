/**
 * An ingredient's `originalText` on the wire, both ways (docs/decisions/0150).
 *
 * Out: the text the ingredient was read from. In a file-first store that is the ingredient's line in
 * the file, so a structured ingredient always carries it: the kept original (a hand-written line that
 * is not canonical, or the `<!-- original: … -->` comment), else its canonical line. A note-only
 * ingredient carries none: its note is the whole line, as in Mealie.
 *
 * In: Mealie's editor and Larder's own send originalText back as they received it, whatever was edited.
 * An originalText equal to what was served for that ingredient (same referenceId) is that echo, not a
 * new original: it must neither become a comment beside an edited line nor undo a hand-written one.
 */
import type { DocIngredient, Vocabulary } from "./doc.js";
import {
  applyOriginalTextRule,
  canonicalIngredientLine,
  formatIngredientLine,
} from "./file/ingredient-line.js";

const isStructured = (ing: DocIngredient): boolean =>
  ing.quantity !== null || ing.unit !== null || ing.food !== null || ing.referencedRecipe !== null;

/** What the wire's originalText says for a stored ingredient. */
export function wireOriginalText(ing: DocIngredient, vocab: Vocabulary): string | null {
  if (ing.originalText !== null) return ing.originalText;
  return isStructured(ing) ? canonicalIngredientLine(ing, vocab) : null;
}

/**
 * The line as its author wrote it, when the recipe file holds the ingredient so: the line is its own
 * original (its fields are what it says, not an edit since). Null for an ingredient whose fields were
 * edited, that came from the API as fields, or that links a sub-recipe (the page links it).
 */
export function lineAsWritten(ing: DocIngredient, vocab: Vocabulary): string | null {
  const ot = ing.originalText;
  if (ot === null || ing.referencedRecipe !== null) return null;
  return formatIngredientLine(ing, vocab) === ot ? ot : null;
}

const sameLine = (a: DocIngredient, b: DocIngredient): boolean =>
  a.quantity === b.quantity &&
  a.quantityMax === b.quantityMax &&
  a.unit === b.unit &&
  a.food === b.food &&
  a.referencedRecipe === b.referencedRecipe &&
  a.note === b.note;

/**
 * The originalText to store for an ingredient coming in through the API. `previous` is the stored
 * ingredient the client was given under the same referenceId, if any.
 */
export function incomingOriginalText(
  ing: DocIngredient,
  previous: DocIngredient | undefined,
  vocab: Vocabulary,
): DocIngredient {
  const echoed =
    previous !== undefined &&
    ing.originalText !== null &&
    ing.originalText === wireOriginalText(previous, vocab);
  if (!echoed) return applyOriginalTextRule(ing, vocab);
  // The wire has no upper bound: an amount left as it was keeps the range it was the start of.
  const quantityMax =
    previous.quantityMax !== null && ing.quantity === previous.quantity ? previous.quantityMax : null;
  const next: DocIngredient = { ...ing, quantityMax, originalText: previous.originalText };
  // Nothing the line says changed: the line stays exactly as it was in the file.
  if (sameLine(next, previous)) return next;
  // Edited fields rewrite the line. An original kept in a comment (text the line could not be) was
  // there before and stays, as Mealie keeps a scraped originalText; a line that was its own original
  // is simply replaced by the edit.
  const wasComment =
    previous.originalText !== null && formatIngredientLine(previous, vocab) !== previous.originalText;
  return wasComment ? applyOriginalTextRule(next, vocab) : { ...next, originalText: null };
}
