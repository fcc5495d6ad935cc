/**
 * The shopping screens' local preferences (spec §3, decision 0031): `viewAllLists` (every list of the
 * household, not only mine) and `viewByLabel` (items grouped under their labels), kept in localStorage.
 * Read after hydration, so the server's first paint (the defaults) never mismatches.
 */
import { useCallback, useEffect, useState } from "react";

export interface ShoppingPrefs {
  viewAllLists: boolean;
  viewByLabel: boolean;
}

export const DEFAULT_SHOPPING_PREFS: Readonly<ShoppingPrefs> = Object.freeze({
  viewAllLists: false,
  viewByLabel: true,
});
export const SHOPPING_PREFS_KEY = "larder.shopping-preferences";

export function parseShoppingPrefs(raw: string | null | undefined): ShoppingPrefs {
  let v: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) v = parsed as Record<string, unknown>;
  } catch {
    // damaged value: defaults
  }
  const d = DEFAULT_SHOPPING_PREFS;
  return {
    viewAllLists: typeof v.viewAllLists === "boolean" ? v.viewAllLists : d.viewAllLists,
    viewByLabel: typeof v.viewByLabel === "boolean" ? v.viewByLabel : d.viewByLabel,
  };
}

export function useShoppingPrefs(): [ShoppingPrefs, (patch: Partial<ShoppingPrefs>) => void] {
  const [prefs, setPrefs] = useState<ShoppingPrefs>(DEFAULT_SHOPPING_PREFS);
  useEffect(() => {
    try {
      setPrefs(parseShoppingPrefs(localStorage.getItem(SHOPPING_PREFS_KEY)));
    } catch {
      // no storage: defaults
    }
  }, []);
  const update = useCallback((patch: Partial<ShoppingPrefs>) => {
    setPrefs((cur) => {
      const next = { ...cur, ...patch };
      try {
        localStorage.setItem(SHOPPING_PREFS_KEY, JSON.stringify(next));
      } catch {
        // not kept: fine for this visit
      }
      return next;
    });
  }, []);
  return [prefs, update];
}
