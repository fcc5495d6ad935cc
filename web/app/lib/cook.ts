/**
 * Cook mode (spec §4: toggles with view mode): which ingredients each step uses, and keeping the screen
 * awake while cooking through the Screen Wake Lock API, where the browser offers it.
 */
import { useEffect } from "react";

export interface CookStepRef {
  ingredientReferences: string[];
}

/** Per step, the indexes of the ingredients it references, in ingredient order (unknown ids dropped). */
export function stepIngredientIndexes(
  steps: readonly CookStepRef[],
  ingredientRefIds: readonly string[],
): number[][] {
  const at = new Map(ingredientRefIds.map((id, i) => [id, i]));
  return steps.map((s) =>
    [
      ...new Set(s.ingredientReferences.map((r) => at.get(r)).filter((i): i is number => i !== undefined)),
    ].sort((a, b) => a - b),
  );
}

/** The step index after a move, kept inside 0…count-1. */
export function clampStep(index: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(Math.max(index, 0), count - 1);
}

interface WakeLockSentinelLike {
  release(): Promise<void>;
  addEventListener?(type: "release", fn: () => void): void;
}
interface WakeLockLike {
  request(type: "screen"): Promise<WakeLockSentinelLike>;
}

/** Whether this browser can keep the screen on (Chromium, Safari 16.4+, Firefox 126+; secure pages only). */
export function wakeLockSupported(): boolean {
  return typeof navigator !== "undefined" && "wakeLock" in navigator;
}

/**
 * Keeps the screen on while `active`. The browser drops the lock when the tab is hidden, so it is taken
 * again when the page becomes visible. Failures (battery saver, no permission) are silent: cooking
 * works without it.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || !wakeLockSupported()) return;
    const wl = (navigator as Navigator & { wakeLock: WakeLockLike }).wakeLock;
    let sentinel: WakeLockSentinelLike | null = null;
    let stopped = false;
    const acquire = () => {
      if (document.visibilityState !== "visible") return;
      wl.request("screen").then(
        (s) => {
          if (stopped) void s.release().catch(() => undefined);
          else sentinel = s;
        },
        () => undefined,
      );
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") acquire();
    };
    acquire();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisible);
      void sentinel?.release().catch(() => undefined);
    };
  }, [active]);
}
