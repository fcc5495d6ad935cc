/**
 * The ways of writing an amount that Mealie's algorithm reads wrong, rewritten before it runs (decision
 * 0231): a range ("2-3", "3 to 4", "½–¾") had no amount at all, "1-1/2" and "1 and 1/2" were one, "200g"
 * and "200g/7oz" were a food and "1⁄2" (with the fraction slash) nothing.
 */
import { UNICODE_FRACTIONS } from "../../../core/recipes/quantity.js";

const VULGAR = Object.keys(UNICODE_FRACTIONS).join("");
/** One amount as written: "1 1/2", "1 ½", "1/2", "1.5", "1,5", "½", "2". */
const AMOUNT = `(?:\\d+\\s+\\d+/\\d+|\\d+\\s*[${VULGAR}]|\\d+/\\d+|\\d+(?:[.,]\\d+)?|[${VULGAR}])`;
/** A number with letters glued to it: "200g", "1½tbsp", the upper end of "100-150ml". */
const GLUED = new RegExp(
  `(^|\\s|[\\d${VULGAR}]\\s?[-–—]\\s?)(\\d+(?:[.,]\\d+)?|\\d*[${VULGAR}])(\\p{L}+\\.?)(?=[\\s,)]|$)`,
  "gu",
);
/**
 * "250g/9oz", "500g/1lb 2oz", "500ml/18fl oz", "200 g / 7 oz", "150-200ml/5-7fl oz": a metric amount and its imperial equivalent, which is left
 * out as the nlp parser leaves it out.
 */
const EQUIVALENT = new RegExp(
  `(^|\\s)((?:${AMOUNT}\\s?[-–—]\\s?)?${AMOUNT}\\s?\\p{L}+\\.?)\\s?/\\s?(?:${AMOUNT}\\s?[-–—]\\s?)?${AMOUNT}\\s?(?:fl\\.?\\s?)?\\p{L}+\\.?(?:\\s\\d+\\s?oz\\b)?(?=[\\s,)]|$)`,
  "gu",
);
const RANGE = new RegExp(`^(${AMOUNT})\\s*(?:[-–—]|\\s(?:to|or)\\s)\\s*(${AMOUNT})(?=\\s)`, "iu");

/** The value of an amount AMOUNT matched. */
function valueOf(text: string): number {
  let total = 0;
  for (const part of text
    .replace(new RegExp(`([${VULGAR}])`, "gu"), " $1")
    .trim()
    .split(/\s+/)) {
    const frac = /^(\d+)\/(\d+)$/.exec(part);
    if (frac) total += Number(frac[2]) === 0 ? 0 : Number(frac[1]) / Number(frac[2]);
    else if (UNICODE_FRACTIONS[part] !== undefined) total += UNICODE_FRACTIONS[part];
    else total += Number(part.replace(",", ".")) || 0;
  }
  return total;
}

export interface Rewritten {
  text: string;
  /** The upper end of a range at the start, if any. */
  max: number | null;
}

/**
 * The line with its amount in a form the algorithm reads, and the upper end of a range. `isUnit` says
 * which letters glued to a number are a unit ("200g", not "2nd").
 */
export function rewriteAmounts(line: string, isUnit: (word: string) => boolean): Rewritten {
  let text = line
    .replace(/(\d)\u2044(\d)/g, "$1/$2")
    // "1x400g tin": packs counted, then their size.
    .replace(/^(\s*\d+)\s*[x×]\s*(?=\d)/i, "$1 x ")
    .replace(/(^|\s)\.(\d)/g, "$10.$2")
    // "1-1/2", "1 and 1/2": one and a half, not a range nor two amounts.
    .replace(/^(\s*\d+)(?:-|\s+and\s+)(\d+\/\d+)(?=\s)/i, (m, whole: string, frac: string) =>
      valueOf(frac) < 1 ? `${whole} ${frac}` : m,
    )
    .replace(EQUIVALENT, "$1$2")
    .replace(GLUED, (m, pre: string, n: string, u: string) => (isUnit(u) ? `${pre}${n} ${u}` : m));
  let max: number | null = null;
  const range = RANGE.exec(text.trimStart());
  if (range) {
    const low = valueOf(range[1]);
    const high = valueOf(range[2]);
    if (high > low) {
      max = high;
      text = `${range[1]}${text.trimStart().slice(range[0].length)}`;
    }
  }
  return { text, max };
}
