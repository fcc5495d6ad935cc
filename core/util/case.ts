/** snake_case → camelCase for one key. */
export function camelKey(k: string): string {
  return k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Mealie accepts both camelCase and snake_case request fields. Camelise keys recursively; when both
 * spellings are present the camelCase one wins. `orgURL` keeps its odd casing.
 */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(src)) {
    let ck = camelKey(k);
    if (ck === "orgUrl") ck = "orgURL";
    if (ck === "updateAt") ck = "updatedAt";
    if (ck !== k && Object.prototype.hasOwnProperty.call(src, ck)) continue;
    out[ck] = camelizeKeys(v);
  }
  return out;
}
