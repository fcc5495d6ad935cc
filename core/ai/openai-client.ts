/**
 * A small client for OpenAI-compatible chat completions (OpenAI, or a local server speaking its API),
 * configured by Mealie's OPENAI_* variables (config.openai) and always through the guarded fetcher.
 * It asks for a JSON answer and turns every way the service can fail — a refusal, a 429 that does not
 * clear, a hang, an answer that is not JSON — into a LarderError with a status the API can answer with.
 */
import type { Config } from "../config.js";
import { LarderError } from "../errors.js";
import { FetchTimeoutError, type GuardedFetcher } from "../net/index.js";

export interface OpenAISettings {
  /** Up to and including the version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The whole request, including retries' waits. OPENAI_REQUEST_TIMEOUT is in seconds (Mealie: 300). */
  timeoutMs: number;
  /** Requests a caller may run at once (OPENAI_WORKERS, Mealie's default 2). */
  workers: number;
  /** OPENAI_CUSTOM_HEADERS / OPENAI_CUSTOM_PARAMS: JSON objects added to each request. */
  headers: Record<string, string>;
  params: Record<string, unknown>;
  /**
   * Set by a group's AI provider (core/ai/providers.ts): its endpoint is a group manager's input, not the
   * administrator's, so its host gets no local-network exemption (decision 0081).
   */
  providerId?: string;
}

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content:
    | string
    | ReadonlyArray<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;
}

export type AiFailure =
  "not_configured" | "refused" | "rate_limited" | "timeout" | "bad_response" | "unavailable";

/** The AI service failed; `status` is what an API route answers. */
export class AiServiceError extends LarderError {
  constructor(
    message: string,
    status: number,
    readonly failure: AiFailure,
  ) {
    super(message, status);
  }
}

function jsonObject(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The settings from config.openai, or null when no API key is set (the AI features are then off). */
export function openAISettings(openai: Config["openai"]): OpenAISettings | null {
  if (!openai.API_KEY) return null;
  const seconds = Number(openai.REQUEST_TIMEOUT ?? 300);
  const workers = Number.parseInt(openai.WORKERS ?? "2", 10);
  return {
    baseUrl: (openai.BASE_URL || "https://api.openai.com/v1").replace(/\/+$/, ""),
    apiKey: openai.API_KEY,
    model: openai.MODEL || "gpt-4o",
    timeoutMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 300_000,
    workers: Number.isFinite(workers) && workers > 0 ? Math.min(workers, 16) : 2,
    headers: Object.fromEntries(
      Object.entries(jsonObject(openai.CUSTOM_HEADERS)).map(([k, v]) => [k, String(v)]),
    ),
    params: jsonObject(openai.CUSTOM_PARAMS),
    ...(openai.PROVIDER_ID ? { providerId: openai.PROVIDER_ID } : {}),
  };
}

export interface ChatOptions {
  /** Ask for `response_format: json_object` (default true for chatJson). */
  json?: boolean;
  temperature?: number;
  signal?: AbortSignal;
}

export interface OpenAIClientOptions {
  /** Attempts after a 429 or 5xx before giving up (default 2). */
  retries?: number;
  /** Longest wait honoured from Retry-After, in ms (default 5 s); longer waits fail at once. */
  maxRetryWaitMs?: number;
}

const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export class OpenAIClient {
  constructor(
    readonly settings: OpenAISettings,
    private readonly fetch: GuardedFetcher,
    private readonly options: OpenAIClientOptions = {},
  ) {}

  /** A client from configuration, or an error naming what to set. */
  static fromConfig(
    config: Pick<Config, "openai">,
    fetch: GuardedFetcher,
    options?: OpenAIClientOptions,
  ): OpenAIClient {
    const settings = openAISettings(config.openai);
    if (!settings)
      throw new AiServiceError(
        "OpenAI is not configured: set OPENAI_API_KEY (and OPENAI_BASE_URL for another service)",
        400,
        "not_configured",
      );
    return new OpenAIClient(settings, fetch, options);
  }

  /** The assistant's text for these messages. */
  async chat(messages: readonly ChatMessage[], opts: ChatOptions = {}): Promise<string> {
    const body = JSON.stringify({
      ...this.settings.params,
      model: this.settings.model,
      messages,
      ...(opts.json ? { response_format: { type: "json_object" } } : {}),
      ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    });
    const deadline = Date.now() + this.settings.timeoutMs;
    const retries = this.options.retries ?? 2;
    // After a 429 or 5xx, running out of time on the retry reports that answer, not a timeout: the
    // service's own refusal is the reason, and which one a person sees must not depend on load.
    let backedOff: AiServiceError | undefined;
    const tooLong = () =>
      backedOff ?? new AiServiceError("The AI service took too long to answer", 504, "timeout");
    for (let attempt = 0; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw tooLong();
      let res;
      try {
        res = await this.fetch(`${this.settings.baseUrl}/chat/completions`, {
          method: "POST",
          headers: {
            ...this.settings.headers,
            "content-type": "application/json",
            accept: "application/json",
            authorization: `Bearer ${this.settings.apiKey}`,
          },
          body,
          timeoutMs: left,
          maxBytes: MAX_ANSWER_BYTES,
          throwHttpErrors: false,
          signal: opts.signal,
        });
      } catch (err) {
        if (err instanceof FetchTimeoutError) throw tooLong();
        if (err instanceof LarderError) throw err;
        if ((err as { name?: string } | null)?.name === "AbortError") throw err;
        throw new AiServiceError(
          `The AI service could not be reached: ${(err as Error).message}`,
          502,
          "unavailable",
        );
      }
      if (res.status === 429 || res.status >= 500) {
        backedOff =
          res.status === 429
            ? new AiServiceError(
                "The AI service is rate-limiting requests (429); try again later",
                503,
                "rate_limited",
              )
            : new AiServiceError(`The AI service failed (HTTP ${res.status})`, 502, "unavailable");
        const wait = retryWait(res.headers.get("retry-after"), attempt);
        if (
          attempt < retries &&
          wait <= (this.options.maxRetryWaitMs ?? 5000) &&
          Date.now() + wait < deadline
        ) {
          await sleep(wait, opts.signal);
          continue;
        }
        throw backedOff;
      }
      if (res.status === 401 || res.status === 403)
        throw new AiServiceError(
          `The AI service refused the credentials (HTTP ${res.status}): check OPENAI_API_KEY`,
          502,
          "refused",
        );
      if (res.status < 200 || res.status >= 300)
        throw new AiServiceError(`The AI service refused the request (HTTP ${res.status})`, 502, "refused");
      return contentOf(res.body);
    }
  }

  /** The assistant's answer parsed as a JSON object (fences around it tolerated). */
  async chatJson(
    messages: readonly ChatMessage[],
    opts: Omit<ChatOptions, "json"> = {},
  ): Promise<Record<string, unknown>> {
    const text = await this.chat(messages, { ...opts, json: true });
    const unfenced = text
      .trim()
      .replace(/^```(?:json)?\s*/i, "")
      .replace(/\s*```$/, "");
    let value: unknown;
    try {
      value = JSON.parse(unfenced);
    } catch {
      throw new AiServiceError("The AI service's answer is not valid JSON", 502, "bad_response");
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new AiServiceError("The AI service's answer is not a JSON object", 502, "bad_response");
    return value as Record<string, unknown>;
  }
}

function contentOf(body: Buffer): string {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString("utf8"));
  } catch {
    throw new AiServiceError("The AI service answered with something that is not JSON", 502, "bad_response");
  }
  const choice = (doc as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> } | null)
    ?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content === "string") return content;
  if (typeof choice?.message?.refusal === "string")
    throw new AiServiceError(`The AI model refused: ${choice.message.refusal}`, 502, "refused");
  throw new AiServiceError("The AI service's answer has no message content", 502, "bad_response");
}

/** Retry-After in seconds (or an HTTP date), else exponential from 500 ms. */
function retryWait(header: string | null, attempt: number): number {
  if (header !== null) {
    const secs = Number(header);
    if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
    const at = Date.parse(header);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return 500 * 2 ** attempt;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
