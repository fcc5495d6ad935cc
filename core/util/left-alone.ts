/**
 * Saving on top of changes made meanwhile (decision 0306): a client that sends the copy of a record it
 * opened (`base`) beside what it saves has each field it left as it was there take the record's value
 * now, so what someone else changed while the form was open is kept; so does one neither sent nor
 * opened. Empty, null and absent count as the same value (forms send "" for "none").
 */
export function keepLeftAlone(
  body: Record<string, unknown>,
  base: Record<string, unknown> | undefined,
  current: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): void {
  if (!base) return;
  for (const k of fields) if ((body[k] ?? "") === (base[k] ?? "")) body[k] = current[k];
}
