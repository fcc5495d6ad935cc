import { describe, expect, it } from "vitest";
import {
  UNLOCKED,
  evaluateLogin,
  isLocked,
  lockExpiresAt,
  type LockoutState,
  type LoginOutcome,
} from "./lockout.js";

const policy = { maxLoginAttempts: 5, lockoutHours: 24 };
const t0 = new Date("2024-03-01T12:00:00.000Z");
const hours = (h: number) => new Date(t0.getTime() + h * 3600 * 1000);

/** Run a series of attempts (true = right password) and collect the answers. */
function attempts(
  series: Array<[boolean, Date]>,
  start: LockoutState = UNLOCKED,
): { outcomes: LoginOutcome[]; state: LockoutState } {
  let state = start;
  const outcomes: LoginOutcome[] = [];
  for (const [ok, at] of series) {
    const r = evaluateLogin(state, policy, at, ok);
    outcomes.push(r.outcome);
    state = r.state;
  }
  return { outcomes, state };
}

describe("lockout", () => {
  it("answers 401 up to and including the attempt that locks, then 423 even with the right password", () => {
    const { outcomes, state } = attempts([
      [false, t0],
      [false, t0],
      [false, t0],
      [false, t0],
      [false, t0],
      [true, hours(1)],
      [false, hours(2)],
    ]);
    expect(outcomes).toEqual([
      "unauthorized",
      "unauthorized",
      "unauthorized",
      "unauthorized",
      "unauthorized",
      "locked",
      "locked",
    ]);
    expect(state).toEqual({ loginAttempts: 5, lockedAt: t0.toISOString() });
    expect(lockExpiresAt(state, policy)).toEqual(hours(24));
  });

  it("does not count attempts made while locked", () => {
    const { state } = attempts(Array.from({ length: 8 }, () => [false, t0] as [boolean, Date]));
    expect(state.loginAttempts).toBe(5);
  });

  it("resets the counter on a successful login", () => {
    const { outcomes, state } = attempts([
      [false, t0],
      [false, t0],
      [true, t0],
    ]);
    expect(outcomes).toEqual(["unauthorized", "unauthorized", "ok"]);
    expect(state).toEqual(UNLOCKED);
  });

  it("lets the user in once lockedAt + lockoutHours has passed, with a fresh counter", () => {
    const locked: LockoutState = { loginAttempts: 5, lockedAt: t0.toISOString() };
    expect(isLocked(locked, policy, hours(23.99))).toBe(true);
    expect(isLocked(locked, policy, hours(24))).toBe(false);
    expect(attempts([[true, hours(24)]], locked)).toEqual({ outcomes: ["ok"], state: UNLOCKED });
    expect(attempts([[false, hours(25)]], locked).state).toEqual({ loginAttempts: 1, lockedAt: null });
  });

  it("treats an unreadable lock timestamp as a fresh lock rather than none", () => {
    expect(isLocked({ loginAttempts: 5, lockedAt: "yesterday-ish" }, policy, new Date())).toBe(true);
  });
});
