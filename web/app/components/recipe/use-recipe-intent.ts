/**
 * Submits one of the recipe page's intents (lib/recipe-intents.server.ts) without navigating, and hands
 * the result to `onDone` exactly once. Remix reloads the page's loaders after every action, so lists
 * (ratings, comments) refresh on their own.
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { IntentResult } from "../../lib/recipe-types.js";

export type { IntentResult };

export function useRecipeIntent(action: string, onDone?: (r: IntentResult) => void) {
  const fetcher = useFetcher<IntentResult>();
  const done = useRef(onDone);
  done.current = onDone;
  const seen = useRef<unknown>(null);
  const waiting = useRef<((r: IntentResult) => void) | null>(null);

  // After every commit, not on [fetcher.state, fetcher.data]: React Router reads fetcher.data from a
  // mutable map, so a render React bails out of can record new data as the dependency and drop the
  // effect (see ShareDialog). `seen` keeps it to once per result.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    done.current?.(fetcher.data);
    waiting.current?.(fetcher.data);
    waiting.current = null;
  });

  const run = (intent: string, fields: Record<string, string> = {}) =>
    fetcher.submit({ intent, ...fields }, { method: "post", action });

  const upload = (form: FormData) =>
    fetcher.submit(form, { method: "post", action, encType: "multipart/form-data" });

  /** Like run, and resolves with the result (for dialogs that close only on success). */
  const call = (intent: string, fields: Record<string, string> = {}) =>
    new Promise<IntentResult>((resolve) => {
      waiting.current = resolve;
      run(intent, fields);
    });

  return { run, call, upload, busy: fetcher.state !== "idle", fetcher };
}
