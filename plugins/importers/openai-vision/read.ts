/**
 * Photos → one recipe: every photo goes to the model in one message (a recipe often spans two pages),
 * with a prompt asking for schema.org-like JSON; the answer is checked before anything is kept, and
 * the first photo becomes the recipe's image.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { ImportedRecipe, ImportInput, PluginContext } from "../../../core/plugins/kinds.js";
import { PluginInputError } from "../../../core/plugins/registry.js";
import {
  AiServiceError,
  OpenAIClient,
  openAISettings,
  type ChatMessage,
} from "../../../core/ai/openai-client.js";
import { aiFetcher, openAIImageServices } from "../../../core/ai/ai-endpoint.js";
import { formatMinutes, toMinutes } from "../schema-org/normalise.js";

const PROMPT = `You read recipes from photos of cookbooks, magazines, cards and handwriting.
Answer with exactly one JSON object and nothing else, with these keys:
- "name": the recipe's title (string)
- "description": a short description if the photo has one, else "" (string)
- "recipeYield": servings or yield as written, e.g. "4 servings" (string or null)
- "prepTime", "cookTime", "totalTime": durations as written, e.g. "20 minutes" (string or null)
- "recipeIngredient": every ingredient line, as written, one string per line, in order (array of strings)
- "recipeInstructions": every step, one string per step, in order (array of strings)
- "tags": a few short keywords (array of strings)
Never invent ingredients or steps that are not in the photos. If the photos hold no recipe, answer {"name": "", "recipeIngredient": [], "recipeInstructions": []}.`;

const Answer = z
  .object({
    name: z.string().nullish(),
    description: z.string().nullish(),
    recipeYield: z.union([z.string(), z.number()]).nullish(),
    prepTime: z.union([z.string(), z.number()]).nullish(),
    cookTime: z.union([z.string(), z.number()]).nullish(),
    totalTime: z.union([z.string(), z.number()]).nullish(),
    recipeIngredient: z.array(z.union([z.string(), z.number()])).nullish(),
    recipeInstructions: z.array(z.union([z.string(), z.object({ text: z.string() }).loose()])).nullish(),
    tags: z.array(z.string()).nullish(),
  })
  .loose();

const time = (v: unknown): string | null => {
  if (v === null || v === undefined || v === "") return null;
  return formatMinutes(toMinutes(v)) ?? String(v);
};

export async function recipeFromPhotos(input: ImportInput, ctx: PluginContext): Promise<ImportedRecipe[]> {
  if (input.type !== "images") throw new PluginInputError("openai-vision reads photos only");
  const settings = openAISettings(ctx.config.openai);
  if (!settings || !openAIImageServices(ctx.config))
    throw new PluginInputError("OpenAI image services are not enabled (set OPENAI_API_KEY)");
  if (input.images.length === 0) throw new PluginInputError("No photo was given");
  const photos = await Promise.all(
    input.images.map(async (img) => ({ ...img, data: await readFile(img.path) })),
  );
  const language = input.translateLanguage?.trim();
  const messages: ChatMessage[] = [
    {
      role: "system",
      content:
        PROMPT +
        (language
          ? `\nWrite the whole recipe in this language: ${language}.`
          : "\nKeep the recipe in the language of the photos."),
    },
    {
      role: "user",
      content: [
        {
          type: "text",
          text:
            photos.length > 1
              ? `These ${photos.length} photos show one recipe.`
              : "This photo shows a recipe.",
        },
        ...photos.map((p) => ({
          type: "image_url" as const,
          image_url: { url: `data:${p.contentType};base64,${p.data.toString("base64")}` },
        })),
      ],
    },
  ];
  const client = new OpenAIClient(settings, aiFetcher(ctx.config, settings));
  const answer = await client.chat(messages, { json: true, signal: ctx.signal });
  const parsed = Answer.safeParse(jsonInAnswer(answer));
  if (!parsed.success)
    throw new AiServiceError("The AI service did not answer with a recipe", 502, "bad_response");
  const a = parsed.data;
  const ingredients = (a.recipeIngredient ?? []).map((x) => String(x).trim()).filter(Boolean);
  const steps = (a.recipeInstructions ?? [])
    .map((x) => (typeof x === "string" ? x : x.text).trim())
    .filter(Boolean);
  const name = (a.name ?? "").trim();
  if (!name && ingredients.length === 0 && steps.length === 0)
    throw new PluginInputError("No recipe was found in the photos");
  const recipe: Record<string, unknown> = {
    name,
    description: a.description ?? "",
    recipeYield: a.recipeYield === null || a.recipeYield === undefined ? null : String(a.recipeYield),
    prepTime: time(a.prepTime),
    performTime: time(a.cookTime),
    totalTime:
      time(a.totalTime) ?? formatMinutes((toMinutes(a.prepTime) ?? 0) + (toMinutes(a.cookTime) ?? 0)),
    recipeIngredient: ingredients.map((note) => ({ note })),
    recipeInstructions: steps.map((text) => ({ text })),
    tags: a.tags ?? [],
  };
  return [{ recipe, image: { bytes: photos[0].data, contentType: photos[0].contentType } }];
}

/** The JSON object in a model's answer, tolerating Markdown code fences and text around it. */
export function jsonInAnswer(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1] ?? text;
  const start = fenced.indexOf("{");
  const end = fenced.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(fenced.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
