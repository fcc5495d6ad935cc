/**
 * An OpenAI-compatible chat client (the recipe-from-photos importer, the AI debug route; the AI
 * ingredient parser can share it). Settings use Mealie's names (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
 * `OPENAI_MODEL`, `OPENAI_REQUEST_TIMEOUT` in seconds, `OPENAI_ENABLE_IMAGE_SERVICES`,
 * `OPENAI_CUSTOM_HEADERS` and `OPENAI_CUSTOM_PARAMS` as JSON objects), read from `config.openai`.
 *
 * Requests go through the guarded fetcher. The configured endpoint is the administrator's choice, not
 * a user's, so its host is allowed even when it is on the local network (a self-hosted model server
 * often is); every other address keeps the fetcher's rules, redirects included.
 */
import type { Config } from "../config.js";
import { LarderError } from "../errors.js";
import {
  createGuardedFetcher,
  FetchTimeoutError,
  HttpStatusError,
  OutboundFetchError,
  type GuardedFetcher,
} from "../net/index.js";

export interface OpenAISettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  imageServices: boolean;
  headers: Record<string, string>;
  params: Record<string, unknown>;
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const DEFAULT_MODEL = "gpt-4o";
const DEFAULT_TIMEOUT_S = 300;
/** Answers are recipes, not novels: a cap on what is read back. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

function jsonObject(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The OpenAI settings, or null when no API key is configured (then AI features are off, as in Mealie). */
export function openAISettings(config: Pick<Config, "openai">): OpenAISettings | null {
  const o = config.openai ?? {};
  if (!o.API_KEY) return null;
  const timeoutS = Number(o.REQUEST_TIMEOUT);
  return {
    baseUrl: (o.BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, ""),
    apiKey: o.API_KEY,
    model: o.MODEL || DEFAULT_MODEL,
    timeoutMs: (Number.isFinite(timeoutS) && timeoutS > 0 ? timeoutS : DEFAULT_TIMEOUT_S) * 1000,
    imageServices: !/^(0|false|no|off)$/i.test(o.ENABLE_IMAGE_SERVICES ?? "true"),
    headers: Object.fromEntries(Object.entries(jsonObject(o.CUSTOM_HEADERS)).map(([k, v]) => [k, String(v)])),
    params: jsonObject(o.CUSTOM_PARAMS),
  };
}

export type ChatContent =
  string | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: ChatContent;
}

/** The AI service failed; `status` is what the API answers (429 passes through, a hang is 504). */
export class AIServiceError extends LarderError {}

export class OpenAIClient {
  private fetcher: GuardedFetcher;

  constructor(
    readonly settings: OpenAISettings,
    config: Pick<Config, "fetchAllow" | "fetchUserAgent">,
  ) {
    let host = "";
    try {
      host = new URL(settings.baseUrl).hostname.replace(/^\[|\]$/g, "");
    } catch {
      throw new AIServiceError("OPENAI_BASE_URL is not a valid URL", 500);
    }
    this.fetcher = createGuardedFetcher({ ...config, fetchAllow: [...(config.fetchAllow ?? []), host] });
  }

  /** One chat completion; returns the first choice's text. `json` asks for a JSON object. */
  async chat(
    messages: ChatMessage[],
    opts: { json?: boolean; signal?: AbortSignal; maxTokens?: number } = {},
  ): Promise<string> {
    const body = {
      model: this.settings.model,
      messages,
      ...(opts.json ? { response_format: { type: "json_object" } } : {}),
      ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
      ...this.settings.params,
    };
    let res;
    try {
      res = await this.fetcher(`${this.settings.baseUrl}/chat/completions`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: `Bearer ${this.settings.apiKey}`,
          ...this.settings.headers,
        },
        body: JSON.stringify(body),
        timeoutMs: this.settings.timeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
        signal: opts.signal,
      });
    } catch (e) {
      if (e instanceof FetchTimeoutError)
        throw new AIServiceError("The AI service did not answer in time", 504);
      if (e instanceof HttpStatusError) {
        if (e.upstreamStatus === 429)
          throw new AIServiceError("The AI service is rate-limiting requests (429); try again later", 429);
        if (e.upstreamStatus === 401 || e.upstreamStatus === 403)
          throw new AIServiceError(`The AI service refused the API key (${e.upstreamStatus})`, 502);
        throw new AIServiceError(`The AI service answered ${e.upstreamStatus}`, 502);
      }
      if (e instanceof OutboundFetchError)
        throw new AIServiceError(`The AI service could not be reached: ${e.message}`, 502);
      throw e;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body.toString("utf8"));
    } catch {
      throw new AIServiceError("The AI service answered something that is not JSON", 502);
    }
    const content = (parsed as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]
      ?.message?.content;
    if (typeof content !== "string" || !content.trim())
      throw new AIServiceError("The AI service answered without a message", 502);
    return content;
  }
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
