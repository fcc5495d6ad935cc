/**
 * Timestamps for the "older than a hand edit" rule (ARCHITECTURE §3 invariant 4) and the reported
 * `dateUpdated` after a hand edit (§8: the later of the front matter and the time the index saw it).
 */

/**
 * Parse a client's `updatedAt`. Mealie sends naive ISO datetimes that mean UTC (no `Z`), sometimes
 * with microseconds; JavaScript would read a naive string as local time, so a zone is added first.
 * Returns the instant and the precision the client sent, or null when it is not a datetime.
 */
export function parseClientStamp(stamp: string): { ms: number; precisionMs: number } | null {
  const m =
    /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
      stamp.trim(),
    );
  if (!m) return null;
  const [, date, time, frac, zone] = m;
  const fracMs = frac ? `.${frac.slice(0, 3).padEnd(3, "0")}` : "";
  const iso = `${date}T${time ?? "00:00:00"}${time && time.length === 5 ? ":00" : ""}${fracMs}${normaliseZone(zone)}`;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const precisionMs = frac ? 1 : time ? 1000 : 24 * 3600 * 1000;
  return { ms, precisionMs };
}

function normaliseZone(zone: string | undefined): string {
  if (!zone || zone.toUpperCase() === "Z") return "Z";
  return zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
}

/**
 * True when a client's copy predates the hand edit the index saw at `seenAt`. Compared at the
 * precision the client sent: a client that echoes a whole-second `updatedAt` for an edit seen at
 * .400 s has seen that edit, and refusing it would be a false 409. An unreadable stamp refuses
 * nothing (API-versus-API writes stay last-write-wins, as in Mealie).
 */
export function predatesHandEdit(ifUnchangedSince: string | undefined, seenAt: string | null): boolean {
  if (ifUnchangedSince === undefined || seenAt === null) return false;
  const client = parseClientStamp(ifUnchangedSince);
  const seen = Date.parse(seenAt);
  if (!client || Number.isNaN(seen)) return false;
  const seenAtPrecision = Math.floor(seen / client.precisionMs) * client.precisionMs;
  return client.ms < seenAtPrecision;
}

/** The later of a front matter `dateUpdated` and the time the index saw a hand edit, as stored text. */
export function laterStamp(dateUpdated: string | null, seenAt: string | null): string | null {
  if (seenAt === null) return dateUpdated;
  if (dateUpdated === null) return seenAt;
  const a = parseClientStamp(dateUpdated);
  if (!a) return seenAt;
  return a.ms >= Date.parse(seenAt) ? dateUpdated : seenAt;
}
