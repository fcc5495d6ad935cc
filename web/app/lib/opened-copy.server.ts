/**
 * A form's `base`: the record as the form or dialog opened it, as JSON (decision 0306). Core sets only
 * the fields the form changed from it, so what someone else changed meanwhile is kept.
 */
export function openedCopy(form: FormData): Record<string, unknown> | undefined {
  try {
    const base: unknown = JSON.parse(String(form.get("base") ?? "") || "null");
    return base && typeof base === "object" && !Array.isArray(base)
      ? (base as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
