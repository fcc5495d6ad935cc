/**
 * Password strength score 0–100 (spec §5), the number Mealie's UI shows under a new password. Shared
 * with the web UI, so this file imports nothing (no Node built-ins).
 */

const FLAGGED_WORDS = ["password", "mealie", "admin", "qwerty", "login"];
const MIN_LENGTH = 6;

/**
 * 0 when empty, shorter than 6, or containing (any case) password, mealie, admin, qwerty or login.
 * Otherwise each character adds 5 divided by how many times it has occurred so far (5, then 2.5,
 * then 5/3…), plus 10 for each character class present beyond the first (digits, lower case, upper
 * case, non-word). Clamped to 0–100 and not rounded. Characters are UTF-16 code units, like the UI.
 */
export function passwordStrength(password: string): number {
  if (!password || password.length < MIN_LENGTH) return 0;
  const lower = password.toLowerCase();
  if (FLAGGED_WORDS.some((w) => lower.includes(w))) return 0;

  let score = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < password.length; i++) {
    const ch = password[i];
    const count = (seen.get(ch) ?? 0) + 1;
    seen.set(ch, count);
    score += 5 / count;
  }

  const classes = [/\d/, /[a-z]/, /[A-Z]/, /\W/].filter((re) => re.test(password)).length;
  // A password of only "_" has no class at all; like the UI, that subtracts 10 before clamping.
  score += (classes - 1) * 10;
  return Math.max(0, Math.min(100, score));
}
