/**
 * The nlp parser's work, loaded on first use: tokenise, tag with the trained model, assemble Mealie's
 * fields, match food and unit against the group's vocabulary.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ParsedIngredientResult, VocabularyMatcher } from "../../../core/plugins/kinds.js";
import { assemble, joinTokens } from "./assemble.js";
import { refine } from "./refine.js";
import { TaggerModel } from "./model.js";
import { LABEL_INDEX } from "./labels.js";
import { countedAmount } from "../counted.js";
import { tokenize } from "./tokenize.js";
import { cleanLine } from "../clean.js";

/**
 * The model beside this module (running from source), else the source tree's copy found by walking up:
 * built output (dist/plugins/…, and the bundle's dist/bundle/chunks/…) has no copy of its own, and its
 * depth below the installation differs between the two.
 */
function modelPath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  const beside = join(dir, "model.bin.gz");
  if (existsSync(beside)) return beside;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, "plugins", "parsers", "nlp", "model.bin.gz");
    if (existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  return null;
}

let model: TaggerModel | null = null;

/** The committed model, read and decoded once. */
export function loadModel(): TaggerModel {
  if (model) return model;
  const path = modelPath();
  if (!path)
    throw new Error(
      "the nlp parser's model file (plugins/parsers/nlp/model.bin.gz) is missing: run npm run train:parser",
    );
  model = TaggerModel.decode(readFileSync(path));
  return model;
}

/** Longest stretch of a line that is tagged; the rest goes to the note unread (a line is no essay). */
export const MAX_TOKENS = 400;
// Control characters carry no meaning in an ingredient and would only become odd punctuation tokens.
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** ".5 cup": the reference tokeniser splits off the point, and the model then reads 5. */
const BARE_DECIMAL = /(^|[\s(])\.(\d)/g;

/**
 * Tags the tokens, a counting phrase at the start read first (countedAmount): the model has seen few of
 * them and reads "half a dozen" as a half, "a couple of tablespoons" as a comment and a food. It tags the
 * line with the phrase's number in its place (or without a vague phrase such as "a few"); the phrase's
 * words are then the amount (or a comment), and an "of" after it nothing.
 */
function tagCounted(
  tokens: readonly string[],
  tagger: TaggerModel,
): { labels: ArrayLike<number>; confidence: ArrayLike<number> } {
  let start = 0;
  while (start < tokens.length && !/[\p{L}\p{N}]/u.test(tokens[start])) start++;
  const counted = countedAmount(tokens.slice(start, start + 6).map((t) => t.toLowerCase()));
  if (!counted) return tagger.tag(tokens);
  const end = start + counted.length;
  const stand = counted.value === null ? [] : [String(counted.value)];
  const t = tagger.tag([...tokens.slice(0, start), ...stand, ...tokens.slice(end)]);
  const labels: number[] = [];
  const confidence: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i >= start && i < end) {
      const of = tokens[i].toLowerCase() === "of";
      labels.push(of ? LABEL_INDEX.PUNC : counted.value === null ? LABEL_INDEX.COMMENT : LABEL_INDEX.QTY);
      confidence.push(stand.length ? t.confidence[start] : 1);
      continue;
    }
    const j = i < start ? i : i - counted.length + stand.length;
    labels.push(t.labels[j]);
    confidence.push(t.confidence[j]);
  }
  return { labels, confidence };
}

export function parseLine(
  line: string,
  match: VocabularyMatcher,
  tagger: TaggerModel = loadModel(),
): ParsedIngredientResult {
  const text = cleanLine(line);
  const clean = (PRINTABLE_ASCII.test(text) ? text : text.replace(CONTROL, " ")).replace(
    BARE_DECIMAL,
    "$10.$2",
  );
  const { tokens, spans } = tokenize(clean);
  const head = tokens.slice(0, MAX_TOKENS);
  const rest = tokens.length > MAX_TOKENS ? clean.slice(spans[MAX_TOKENS][0]).trim() : "";
  if (head.length === 0) {
    return {
      input: line.trim(),
      confidence: { average: null, comment: null, name: null, unit: null, quantity: null, food: null },
      ingredient: { quantity: 0, unit: null, food: null, note: clean.trim() },
    };
  }
  const { labels, confidence } = tagCounted(head, tagger);
  const a = assemble(head, labels, confidence);
  const r = refine(head, a, match);
  return {
    input: joinTokens(tokens),
    confidence: a.confidence,
    ingredient: {
      quantity: r.quantity,
      quantityMax: r.quantityMax,
      unit: r.unit,
      food: r.food,
      note: rest ? [r.note, rest].filter(Boolean).join(" ") : r.note,
    },
  };
}
