/**
 * The scores of shared/fixtures/ingredients/SOURCE.md ("Suggested metric"): word level (with and without
 * PUNC), sentence level, and the fields Mealie returns (quantity within 0.01, first unit run singularised,
 * the name tokens) with the rate of all three exact.
 */
import { singular } from "./lexicon.js";
import { LABELS } from "./labels.js";
import { readQuantity } from "./quantity.js";

export interface Fields {
  qty: number | null;
  unit: string;
  food: string;
}

export function fieldsOf(tokens: readonly string[], labels: ArrayLike<number>): Fields {
  const QTY = 0,
    UNIT = 1,
    NAME = 6;
  let q = -1;
  while (++q < tokens.length && labels[q] !== QTY);
  const qtyRun: string[] = [];
  for (let i = q; i < tokens.length && labels[i] === QTY; i++) qtyRun.push(tokens[i]);
  let u = -1;
  while (++u < tokens.length && labels[u] !== UNIT);
  const unitRun: string[] = [];
  for (let i = u; i < tokens.length && labels[i] === UNIT; i++) unitRun.push(singular(tokens[i]));
  const food: string[] = [];
  for (let i = 0; i < tokens.length; i++) if (labels[i] === NAME) food.push(tokens[i].toLowerCase());
  return { qty: readQuantity(qtyRun)?.value ?? null, unit: unitRun.join(" "), food: food.join(" ") };
}

export class Scores {
  tokens = 0;
  correct = 0;
  tokensNoPunc = 0;
  correctNoPunc = 0;
  sentences = 0;
  sentencesCorrect = 0;
  qty = 0;
  unit = 0;
  food = 0;
  all = 0;

  add(tokens: readonly string[], gold: ArrayLike<number>, pred: ArrayLike<number>): void {
    const PUNC = LABELS.indexOf("PUNC");
    let ok = true;
    for (let i = 0; i < tokens.length; i++) {
      const right = gold[i] === pred[i];
      this.tokens++;
      if (right) this.correct++;
      else ok = false;
      if (gold[i] !== PUNC) {
        this.tokensNoPunc++;
        if (right) this.correctNoPunc++;
      }
    }
    this.sentences++;
    if (ok) this.sentencesCorrect++;
    const g = fieldsOf(tokens, gold),
      p = fieldsOf(tokens, pred);
    const qtyOk = g.qty === null ? p.qty === null : p.qty !== null && Math.abs(g.qty - p.qty) <= 0.01;
    const unitOk = g.unit === p.unit,
      foodOk = g.food === p.food;
    if (qtyOk) this.qty++;
    if (unitOk) this.unit++;
    if (foodOk) this.food++;
    if (qtyOk && unitOk && foodOk) this.all++;
  }

  summary(): Record<string, number> {
    const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((10000 * a) / b) / 100);
    return {
      lines: this.sentences,
      word: pct(this.correct, this.tokens),
      wordNoPunc: pct(this.correctNoPunc, this.tokensNoPunc),
      sentence: pct(this.sentencesCorrect, this.sentences),
      qty: pct(this.qty, this.sentences),
      unit: pct(this.unit, this.sentences),
      food: pct(this.food, this.sentences),
      all: pct(this.all, this.sentences),
    };
  }
}
