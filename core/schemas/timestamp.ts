/**
 * Date-times a client sends, read the way Mealie's pydantic reads them: ISO 8601 with a `T` or a space,
 * with or without an offset (none means UTC, as Mealie stores naive times), or a bare date (midnight
 * UTC). Stored and served as UTC with a `Z`, so a typed client never meets a value it cannot parse.
 */
import { z } from "zod";

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The UTC timestamp `text` names, or null when it is not a date-time (30 February included). */
export function utcTimestamp(text: string): string | null {
  const s = text.trim();
  const m = ISO.exec(s);
  if (!m) return null;
  const [, y, mo, d, h = "00", mi = "00", sec = "00", offset] = m;
  const fields = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const check = new Date(fields);
  // Date.UTC rolls 30 February over to March; the fields must come back as written.
  if (
    check.getUTCDate() !== Number(d) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCHours() !== Number(h) ||
    check.getUTCMinutes() !== Number(mi) ||
    check.getUTCSeconds() !== Number(sec)
  )
    return null;
  const withTime = m[4] === undefined ? `${s}T00:00:00` : s.replace(" ", "T");
  const ms = Date.parse(offset === undefined ? `${withTime}Z` : withTime);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

/** An optional date-time field of a request: 422 "Input should be a valid datetime" when it is not one. */
export const timestampInput = z
  .string()
  .transform((v, ctx) => {
    const out = utcTimestamp(v);
    if (out === null) {
      ctx.addIssue({ code: "custom", message: "Input should be a valid datetime" });
      return z.NEVER;
    }
    return out;
  })
  .nullish();
