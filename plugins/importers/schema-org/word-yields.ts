/**
 * Servings a yield writes in words: "Serves four", "Makes a dozen", "serves two to three", "Yield: six
 * servings", "für vier Personen", "pour six personnes", "para cuatro personas", "voor vier personen".
 * The words stay as written in the recipe's yield text; this gives the number for its servings.
 */

/** Number words of English, German, French, Spanish and Dutch, up to twelve (a yield rarely says more in words). */
const NUMBERS: Record<string, number> = {
  "half a dozen": 6,
  "a dozen": 12,
  dozen: 12,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  ein: 1,
  eine: 1,
  einen: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zehn: 10,
  elf: 11,
  zwölf: 12,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  onze: 11,
  douze: 12,
  uno: 1,
  una: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
  doce: 12,
  een: 1,
  één: 1,
  twee: 2,
  drie: 3,
  vijf: 5,
  zes: 6,
  zeven: 7,
  negen: 9,
  tien: 10,
  twaalf: 12,
};

const NUMBER_WORD = new RegExp(
  `(?<!\\p{L})(${Object.keys(NUMBERS)
    .sort((a, b) => b.length - a.length)
    .join("|")})(?!\\p{L})`,
  "giu",
);

/** Words that say the count is of servings or people, in the five languages. */
const SERVINGS =
  /(?<!\p{L})(?:serves?|servings?|portions?|portionen|porties|people|persons?|personen|personnes|personas|porciones|raciones|couverts)(?!\p{L})/iu;

/** "two to three", "zwei bis drei", "deux à trois", "dos o tres", "twee tot drie": the upper number, as for digits. */
const RANGE = /(\d+)\s*(?:-|–|to|or|bis|oder|à|a|ou|o|y|tot|of)\s*(\d+)/iu;

/**
 * The servings of a yield written in words, or null when it counts something else ("one loaf",
 * "Makes two dozen cookies") or has no number word. As for digits (`toYields`), a bare "four" or
 * "Makes twelve" counts servings.
 */
export function servingsInWords(text: string): number | null {
  if (/\d/.test(text) || text.length > 80) return null;
  const lower = text.toLowerCase();
  const numbered = lower.replace(NUMBER_WORD, (w) => String(NUMBERS[w]));
  if (numbered === lower) return null;
  const ranged = numbered.replace(RANGE, "$2");
  const n = /\d+/.exec(ranged);
  if (!n) return null;
  if (SERVINGS.test(ranged) || /^(?:(?:makes|yields?)\s*:?\s*)?\d+\s*\.?$/.test(ranged.trim()))
    return Number(n[0]);
  return null;
}
