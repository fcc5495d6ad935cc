/**
 * The `openai` parser's work: lines go to the configured chat model in chunks (OPENAI_WORKERS at once),
 * which answers JSON `{ingredients: [{input, confidence, quantity, unit, food, note}]}`; as in Mealie,
 * `confidence.average` is the model's own 0–100 figure and `originalText` the line.
 */
import { z } from "zod";
import { OpenAIClient, openAISettings, type ChatMessage } from "../../../core/ai/openai-client.js";
import { aiFetcher } from "../../../core/ai/ai-endpoint.js";
import type { ParsedIngredientResult, ParserContext, PluginContext } from "../../../core/plugins/kinds.js";

/** Lines per request: small enough for a quick answer, large enough to amortise the prompt. */
export const CHUNK = 25;

const PROMPT = [
  "You read the ingredient lines of recipes and split each into its parts.",
  'Answer with one JSON object: {"ingredients": [...]}, one entry per line given, in the same order.',
  "Each entry has these keys:",
  '- "input": the line exactly as given;',
  '- "confidence": a number from 0 to 100, how sure you are of the whole entry;',
  '- "quantity": a number (decimals for fractions: "1 1/2" is 1.5; the lower end of a range; 0 when there is none);',
  '- "unit": the unit of measure in the singular ("cup", "g", "clove"), or "" when there is none;',
  '- "food": the name of the ingredient, or "" when there is none;',
  '- "note": everything else (preparation, size, remarks), or "".',
  "Keep the words of the line; do not translate or convert units.",
].join("\n");

const number = z.union([z.number(), z.string().transform((s) => Number(s.replace(",", ".")))]).catch(0);
const text = z
  .union([z.string(), z.null(), z.undefined()])
  .transform((s) => (s ?? "").trim())
  .catch("");
const Entry = z
  .object({
    input: text,
    confidence: number,
    quantity: number,
    unit: text,
    food: text,
    note: text,
  })
  .loose();

function unread(line: string): ParsedIngredientResult {
  return {
    input: line,
    confidence: { average: 0, comment: null, name: null, unit: null, quantity: null, food: null },
    ingredient: { quantity: 0, unit: null, food: null, note: line, originalText: line },
  };
}

async function parseChunk(
  client: OpenAIClient,
  lines: readonly string[],
  ctx: ParserContext,
  signal?: AbortSignal,
): Promise<ParsedIngredientResult[]> {
  const messages: ChatMessage[] = [
    { role: "system", content: PROMPT },
    { role: "user", content: JSON.stringify(lines) },
  ];
  const answer = await client.chatJson(messages, { signal, temperature: 0 });
  const list = Array.isArray(answer.ingredients) ? answer.ingredients : [];
  const entries = list.map((e) => Entry.safeParse(e)).map((r) => (r.success ? r.data : null));
  // Entries are matched by position; when the model skipped or added some, by their input text.
  const aligned =
    entries.length === lines.length
      ? entries
      : lines.map((l) => entries.find((e) => e?.input === l.trim()) ?? null);
  return lines.map((line, i) => {
    const e = aligned[i];
    if (!e) return unread(line);
    const quantity = Number.isFinite(e.quantity) && e.quantity >= 0 ? e.quantity : 0;
    const confidence = Number.isFinite(e.confidence) ? Math.min(100, Math.max(0, e.confidence)) : 0;
    const matched = ctx.match.ingredient(e.unit || null, e.food || null);
    return {
      input: line,
      confidence: { average: confidence, comment: null, name: null, unit: null, quantity: null, food: null },
      ingredient: { quantity, unit: matched.unit, food: matched.food, note: e.note, originalText: line },
    };
  });
}

export async function parseLines(
  lines: readonly string[],
  ctx: PluginContext & ParserContext,
): Promise<ParsedIngredientResult[]> {
  // The AI endpoint's own fetcher: the same local-network rule as photo import (decision 0081).
  const settings = openAISettings(ctx.config.openai);
  const client = OpenAIClient.fromConfig(ctx.config, settings ? aiFetcher(ctx.config, settings) : ctx.fetch);
  const chunks: string[][] = [];
  for (let i = 0; i < lines.length; i += CHUNK) chunks.push(lines.slice(i, i + CHUNK));
  const results: ParsedIngredientResult[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      results[i] = await parseChunk(client, chunks[i], ctx, ctx.signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(client.settings.workers, chunks.length) }, worker));
  return results.flat();
}
