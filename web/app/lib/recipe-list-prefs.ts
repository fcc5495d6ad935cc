/**
 * Local preferences of the recipe list (spec §3: orderBy name, orderDirection asc, filterNull,
 * useMobileCards) in localStorage, and the group home's last query kept per browser session
 * (spec §3 "Search query kept per session") in sessionStorage, so the drawer's Recipes link returns to it.
 */
import { useCallback, useEffect, useState } from "react";
import { ORDER_BY, type OrderBy, type OrderDirection } from "./recipe-list-query.js";

export interface RecipeListPrefs {
  orderBy: OrderBy;
  orderDirection: OrderDirection;
  filterNull: boolean;
  useMobileCards: boolean;
}

export const DEFAULT_RECIPE_LIST_PREFS: Readonly<RecipeListPrefs> = Object.freeze({
  orderBy: "name",
  orderDirection: "asc",
  filterNull: false,
  useMobileCards: false,
});

export const RECIPE_LIST_PREFS_KEY = "larder.recipe-list-preferences";
const QUERY_KEY = (groupSlug: string) => `larder.recipe-list-query.${groupSlug}`;

/** Stored JSON → preferences; a missing or damaged field takes its default. */
export function parseRecipeListPrefs(raw: string | null | undefined): RecipeListPrefs {
  let v: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) v = parsed as Record<string, unknown>;
  } catch {
    // corrupt value: defaults
  }
  const d = DEFAULT_RECIPE_LIST_PREFS;
  return {
    orderBy: (ORDER_BY as readonly unknown[]).includes(v.orderBy) ? (v.orderBy as OrderBy) : d.orderBy,
    orderDirection:
      v.orderDirection === "desc" || v.orderDirection === "asc" ? v.orderDirection : d.orderDirection,
    filterNull: typeof v.filterNull === "boolean" ? v.filterNull : d.filterNull,
    useMobileCards: typeof v.useMobileCards === "boolean" ? v.useMobileCards : d.useMobileCards,
  };
}

function read(store: "localStorage" | "sessionStorage", key: string): string | null {
  try {
    return typeof window === "undefined" ? null : window[store].getItem(key);
  } catch {
    return null; // storage disabled (private mode, cookies blocked)
  }
}

function write(store: "localStorage" | "sessionStorage", key: string, value: string | null): void {
  try {
    if (value === null) window[store].removeItem(key);
    else window[store].setItem(key, value);
  } catch {
    // storage disabled or full: the preference just does not stick
  }
}

/** The preferences (defaults on the server and in the first render, then the stored ones) and a setter. */
export function useRecipeListPrefs(): [RecipeListPrefs, (patch: Partial<RecipeListPrefs>) => void, boolean] {
  const [prefs, setPrefs] = useState<RecipeListPrefs>(DEFAULT_RECIPE_LIST_PREFS);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    setPrefs(parseRecipeListPrefs(read("localStorage", RECIPE_LIST_PREFS_KEY)));
    setLoaded(true);
  }, []);
  const update = useCallback((patch: Partial<RecipeListPrefs>) => {
    setPrefs((p) => {
      const next = { ...p, ...patch };
      write("localStorage", RECIPE_LIST_PREFS_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return [prefs, update, loaded];
}

/** Remember the group home's query string ("" for none) for this browser session. */
export function rememberListQuery(groupSlug: string, search: string): void {
  write("sessionStorage", QUERY_KEY(groupSlug), search.replace(/^\?/, "") || null);
}

/** The remembered query ("?…" or ""), read after hydration. */
export function useRememberedListQuery(groupSlug: string | null): string {
  const [query, setQuery] = useState("");
  useEffect(() => {
    if (!groupSlug) return;
    const q = read("sessionStorage", QUERY_KEY(groupSlug));
    setQuery(q ? `?${q}` : "");
  });
  return query;
}
