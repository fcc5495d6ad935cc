/**
 * Word lists the tagger's features consult, and the quantity reader. The lists only mark membership
 * (the model learns what a membership means); they hold English and metric units with their plurals and
 * abbreviations, sizes, and the small words that join quantities.
 */

const UNIT_WORDS = `
cup cups c tablespoon tablespoons tbsp tbsps tbs tbl tbls tb tbsps teaspoon teaspoons tsp tsps ts
dessertspoon dessertspoons dsp dstspn ounce ounces oz ozs fl fluid pound pounds lb lbs gram grams g gr grm gms
kilogram kilograms kg kgs kilo kilos milligram milligrams mg millilitre millilitres milliliter milliliters ml mls
litre litres liter liters l lt cl centilitre centilitres centiliter dl decilitre decilitres deciliter pint pints pt pts
quart quarts qt qts gallon gallons gal gals can cans tin tins jar jars package packages packet packets pkg pkgs
pack packs bag bags box boxes bunch bunches clove cloves head heads sprig sprigs stalk stalks stick sticks
slice slices piece pieces pinch pinches dash dashes handful handfuls drop drops sheet sheets knob knobs
rasher rashers fillet fillets bottle bottles carton cartons container containers envelope envelopes cube cubes
leaf leaves sachet sachets punnet punnets splash splashes sprinkle scoop scoops inch inches in cm mm centimetre
centimetres centimeter centimeters millimetre millimetres strip strips wedge wedges ear ears loaf loaves bulb bulbs
pod pods shot shots glass glasses mug mugs tub tubs block blocks bar bars jigger jiggers smidgen dollop dollops
stem stems sprigs fillets joint joints rack racks round rounds ball balls tube tubes bowl bowls chunk chunks
thumb thumbs fist cob cobs spear spears link links portion portions serving servings quarter quarters half halves
`;
const SIZE_WORDS = `small large medium big little huge giant jumbo extra-large extra large-ish medium-sized small-sized
large-sized medium-size thick thin heaped heaping level rounded scant generous good`;
const JOIN_WORDS = `to or and - plus x by of a an`;

function set(words: string): ReadonlySet<string> {
  return new Set(words.split(/\s+/).filter(Boolean));
}
export const UNIT_LEXICON = set(UNIT_WORDS);
export const SIZE_LEXICON = set(SIZE_WORDS);
export const JOIN_LEXICON = set(JOIN_WORDS);

/** SOURCE.md's simple singularisation (used for features and for comparing units). */
export function singular(word: string): string {
  const w = word.toLowerCase().replace(/['’]/g, "");
  if (w === "leaves") return "leaf";
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.length > 3 && w.endsWith("oes")) return w.slice(0, -2);
  if (/(ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 2 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}
