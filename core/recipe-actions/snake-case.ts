/**
 * Mealie posts recipe actions with Python's field names (`model_dump()` without aliases), unlike its
 * camelCase API (mealie-api-notes §16). Keys become snake_case; the keys of `extras` are the user's
 * own and stay as written.
 */
const SPECIAL: Readonly<Record<string, string>> = { orgURL: "org_url", updatedAt: "update_at" };

export function snakeKey(k: string): string {
  return (
    SPECIAL[k] ??
    k
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
  );
}

export function snakeKeys(value: unknown, keepKeysOf: ReadonlySet<string> = new Set(["extras"])): unknown {
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v, keepKeysOf));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[snakeKey(k)] =
      keepKeysOf.has(k) && v !== null && typeof v === "object" && !Array.isArray(v)
        ? { ...(v as Record<string, unknown>) }
        : snakeKeys(v, keepKeysOf);
  }
  return out;
}
