/**
 * Account lockout as pure functions (mealie-api-notes §2 "Lockout"): every wrong password counts; the
 * attempt that reaches `maxLoginAttempts` locks the account but still answers 401; later attempts
 * answer 423, even with the right password, until `lockedAt + lockoutHours`; a success resets.
 *
 * One deliberate difference from Mealie: an expired lock ends by itself at the next attempt instead of
 * waiting for the hourly unlock job (Mealie keeps answering 423 while the counter is at the maximum),
 * so the lockout lasts what SECURITY_USER_LOCKOUT_TIME says. The job (`unlockExpired`) still exists
 * to tidy the stored counters.
 */

export interface LockoutPolicy {
  /** SECURITY_MAX_LOGIN_ATTEMPTS (default 5). */
  maxLoginAttempts: number;
  /** SECURITY_USER_LOCKOUT_TIME in hours (default 24). */
  lockoutHours: number;
}

export interface LockoutState {
  loginAttempts: number;
  /** ISO time the account was locked, or null. */
  lockedAt: string | null;
}

export type LoginOutcome = "ok" | "unauthorized" | "locked";

export const UNLOCKED: LockoutState = Object.freeze({ loginAttempts: 0, lockedAt: null });

/** When the lock ends, or null if the account is not locked. */
export function lockExpiresAt(state: LockoutState, policy: LockoutPolicy): Date | null {
  if (state.lockedAt === null) return null;
  const at = Date.parse(state.lockedAt);
  // An unreadable timestamp (hand edit) counts as locked now rather than as unlocked.
  const base = Number.isFinite(at) ? at : Date.now();
  return new Date(base + policy.lockoutHours * 3600 * 1000);
}

/** Whether the account refuses logins at `now`. */
export function isLocked(state: LockoutState, policy: LockoutPolicy, now: Date): boolean {
  const until = lockExpiresAt(state, policy);
  return until !== null && now.getTime() < until.getTime();
}

/** The state with an expired lock cleared (counter back to 0); unchanged otherwise. */
export function expireLock(state: LockoutState, policy: LockoutPolicy, now: Date): LockoutState {
  return state.lockedAt !== null && !isLocked(state, policy, now) ? { ...state, ...UNLOCKED } : state;
}

/** One wrong password: count it, and lock when the count reaches the maximum. */
export function registerFailure(state: LockoutState, policy: LockoutPolicy, now: Date): LockoutState {
  const loginAttempts = state.loginAttempts + 1;
  const lockedAt = state.lockedAt ?? (loginAttempts >= policy.maxLoginAttempts ? now.toISOString() : null);
  return { ...state, loginAttempts, lockedAt };
}

/**
 * Decide a login attempt from the stored state and whether the password matched; returns the outcome
 * and the state to store. The attempt that locks the account still answers "unauthorized".
 */
export function evaluateLogin(
  state: LockoutState,
  policy: LockoutPolicy,
  now: Date,
  passwordMatches: boolean,
): { outcome: LoginOutcome; state: LockoutState } {
  const current = expireLock(state, policy, now);
  if (isLocked(current, policy, now)) return { outcome: "locked", state: current };
  if (passwordMatches) return { outcome: "ok", state: { ...current, ...UNLOCKED } };
  return { outcome: "unauthorized", state: registerFailure(current, policy, now) };
}
