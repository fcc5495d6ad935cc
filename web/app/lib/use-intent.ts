/**
 * Submits a named intent to a route action without navigating and resolves with the action's answer,
 * for dialogs that close only on success (the same pattern as the recipe page's use-recipe-intent).
 * React Router revalidates the page's loaders after each action, so lists refresh on their own.
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";

export type IntentAnswer<T = Record<string, unknown>> =
  ({ ok: true; intent: string } & T) | { ok: false; intent: string; message: string };

export function useIntent<T = Record<string, unknown>>(action?: string) {
  const fetcher = useFetcher<IntentAnswer<T>>();
  const seen = useRef<unknown>(null);
  const waiting = useRef<((r: IntentAnswer<T>) => void) | null>(null);

  // After every commit: fetcher.data is read from a mutable map, so a dependency list can miss it.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    waiting.current?.(fetcher.data);
    waiting.current = null;
  });

  const call = (intent: string, fields: Record<string, string> = {}) =>
    new Promise<IntentAnswer<T>>((resolve) => {
      waiting.current = resolve;
      void fetcher.submit({ intent, ...fields }, { method: "post", ...(action ? { action } : {}) });
    });

  return { call, busy: fetcher.state !== "idle" };
}

/** A core error as the action's answer: its message is written for people (422s list the fields'). */
export function problemText(e: unknown): string {
  const issues = (e as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.length)
    return issues.map((i: { msg?: string; message?: string }) => i.msg ?? i.message ?? "").join("; ");
  const detail = (e as { detail?: unknown }).detail;
  if (Array.isArray(detail))
    return detail
      .map((d: { msg?: string }) => d.msg)
      .filter(Boolean)
      .join("; ");
  if (detail && typeof detail === "object" && typeof (detail as { message?: unknown }).message === "string")
    return (detail as { message: string }).message;
  return e instanceof Error ? e.message : String(e);
}
