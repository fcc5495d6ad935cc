/**
 * Share links (spec §2, §8, §9): the public address of a token, built from the browser's origin so it
 * works behind any proxy; the default expiry; copying with the three outcomes the UI reports.
 */

/** Spec §9: a new share link lasts 30 days unless the user picks another date. */
export const SHARE_DEFAULT_DAYS = 30;

/** `{origin}/g/{groupSlug}/shared/r/{tokenId}`. */
export function shareLink(origin: string, groupSlug: string, tokenId: string): string {
  return `${origin.replace(/\/+$/, "")}/g/${encodeURIComponent(groupSlug)}/shared/r/${encodeURIComponent(tokenId)}`;
}

/** `yyyy-MM-dd` of the local calendar day `days` after `now` (the date input's value). */
export function defaultExpiryDate(now: Date = new Date(), days = SHARE_DEFAULT_DAYS): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return localDate(d);
}

export function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The expiry sent to core for a picked day: the end of that local day, as an ISO instant, so a link
 * "valid until the 3rd" works all through the 3rd wherever the user is. null for a bad value.
 */
export function expiryInstant(day: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59);
  return Number.isNaN(d.getTime()) || localDate(d) !== day ? null : d.toISOString();
}

export type CopyOutcome = "copied" | "failed" | "unsupported";

interface ClipboardLike {
  writeText(text: string): Promise<void>;
}

/** Copies text; reports which of spec §8's messages applies. */
export async function copyText(
  text: string,
  clipboard: ClipboardLike | undefined = typeof navigator === "undefined" ? undefined : navigator.clipboard,
): Promise<CopyOutcome> {
  if (!clipboard || typeof clipboard.writeText !== "function") return "unsupported";
  try {
    await clipboard.writeText(text);
    return "copied";
  } catch {
    return "failed";
  }
}
