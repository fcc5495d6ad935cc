/**
 * What the import side adds to the shared OpenAI client (core/ai/openai-client.ts, from the parsers
 * work): whether image services are on, and a guarded fetcher that may reach the configured endpoint.
 */
import type { Config } from "../config.js";
import { createGuardedFetcher, type GuardedFetcher } from "../net/index.js";
import { openAISettings, type OpenAISettings } from "./openai-client.js";

/** OPENAI_ENABLE_IMAGE_SERVICES (Mealie's default: on) with an API key set: photo import and app info. */
export function openAIImageServices(config: Pick<Config, "openai">): boolean {
  return (
    openAISettings(config.openai) !== null &&
    !/^(0|false|no|off)$/i.test(config.openai.ENABLE_IMAGE_SERVICES ?? "true")
  );
}

/**
 * The guarded fetcher for an AI endpoint, one rule for every AI feature (decision 0081): OPENAI_BASE_URL
 * is the administrator's setting, not a user's input, so its host is allowed even on the local network
 * (a self-hosted model server usually is). A group's AI provider is a group manager's input: its host
 * keeps the fetcher's rules (public, or listed in LARDER_FETCH_ALLOW), as do all other addresses,
 * redirects included.
 */
export function aiFetcher(
  config: Pick<Config, "fetchAllow" | "fetchUserAgent">,
  settings: OpenAISettings,
): GuardedFetcher {
  let host: string | null = null;
  try {
    if (!settings.providerId) host = new URL(settings.baseUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    // not a URL: the fetcher refuses it with its own error
  }
  return createGuardedFetcher({
    ...config,
    fetchAllow: host ? [...(config.fetchAllow ?? []), host] : config.fetchAllow,
  });
}
