/**
 * Submits one of a planner screen's intents (lib/mealplan.server.ts) without navigating and resolves with
 * its result once. React Router reloads the page's loaders after the action, so the lists refresh.
 */
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { PlanResult } from "../../lib/mealplan.server.js";

export type { PlanResult };

export const PLANNER_PATH = "/household/mealplan/planner/view";
export const RULES_PATH = "/household/mealplan/settings";

export function usePlanAction(action: string) {
  const fetcher = useFetcher<PlanResult>();
  const seen = useRef<unknown>(null);
  const waiting = useRef<((r: PlanResult) => void) | null>(null);

  // After every commit rather than on [fetcher.data]: fetcher data is read from a mutable map and an
  // effect keyed on it can be dropped (as in use-recipe-intent.ts). `seen` keeps it to once per result.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    waiting.current?.(fetcher.data);
    waiting.current = null;
  });

  const call = (intent: string, fields: Record<string, string> = {}) =>
    new Promise<PlanResult>((resolve) => {
      waiting.current = resolve;
      void fetcher.submit({ intent, ...fields }, { method: "post", action });
    });

  return { call, busy: fetcher.state !== "idle" };
}
