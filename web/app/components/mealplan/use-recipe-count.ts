/**
 * How many of the group's recipes a filter selects, from the recipes list itself (`perPage=1` and its
 * `total`), so the count is what the random pick will choose from. Asked a short pause after the last
 * change; only the latest answer counts.
 */
import { useEffect, useState } from "react";

export type RecipeCount =
  | { state: "loading" }
  | { state: "count"; count: number }
  /** The list refused the filter; `message` is core's reason (`invalid query string: …`). */
  | { state: "invalid"; message: string }
  | { state: "failed" };

const PAUSE_MS = 250;

export function useRecipeCount(filter: string, enabled: boolean): RecipeCount {
  const [result, setResult] = useState<{ filter: string; count: RecipeCount } | null>(null);

  useEffect(() => {
    if (!enabled) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ page: "1", perPage: "1" });
      if (filter.trim()) query.set("queryFilter", filter);
      fetch(`/api/recipes?${query}`, { signal: ctrl.signal, headers: { Accept: "application/json" } })
        .then(async (r): Promise<RecipeCount> => {
          const body = (await r.json().catch(() => null)) as { total?: number; detail?: unknown } | null;
          if (r.ok && typeof body?.total === "number") return { state: "count", count: body.total };
          if (r.status === 400 || r.status === 422)
            return { state: "invalid", message: typeof body?.detail === "string" ? body.detail : "" };
          return { state: "failed" };
        })
        .then((count) => setResult({ filter, count }))
        .catch(() => {
          if (!ctrl.signal.aborted) setResult({ filter, count: { state: "failed" } });
        });
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [filter, enabled]);

  // An answer about an earlier filter is not shown as this one's.
  return result && result.filter === filter ? result.count : { state: "loading" };
}
