/**
 * Login throttling by client address (decision 0018). Mealie locks an account for everyone after five
 * wrong passwords, so five anonymous requests lock the admin out for a day. Here the count that
 * locks is kept per (client address, account): the client that made the wrong guesses is the one
 * answered 423 "User is locked out" — exactly what Mealie answers it — while the owner signing in
 * from anywhere else is not affected. The account itself (the stored lock, which also ends its
 * sessions) locks only when that has happened from `DISTRIBUTED_ADDRESSES` different addresses: a
 * guessing attack spread over many machines. Each address also has an overall budget across accounts
 * (password spraying), past which it is answered 429 without its password being checked.
 *
 * In memory on purpose: a restart forgets the per-address counts (the stored account lock stays),
 * and nothing an anonymous client does makes the server write to disk.
 */
import type { LockoutPolicy } from "./lockout.js";

/** Addresses that must each exhaust their attempts on one account before the account locks for everyone. */
export const DISTRIBUTED_ADDRESSES = 3;
/** Failed logins one address may make across all accounts within `SPRAY_WINDOW_MS`. */
export const SPRAY_BUDGET = 20;
export const SPRAY_WINDOW_MS = 15 * 60_000;
/** Entries kept at most (oldest dropped first): the table cannot grow without bound under a flood. */
const MAX_ENTRIES = 100_000;

interface PairState {
  failures: number;
  lockedAt: number | null;
}

export type ThrottleVerdict =
  { kind: "ok" } | { kind: "locked" } | { kind: "throttled"; retryAfterSeconds: number };

export class LoginThrottle {
  private pairs = new Map<string, PairState>();
  private spray = new Map<string, number[]>();

  constructor(private readonly policy: () => LockoutPolicy) {}

  private lockMs(): number {
    return this.policy().lockoutHours * 3600_000;
  }

  /** Before the password is checked: may this address try this account (null: an unknown login) now? */
  check(address: string, userId: string | null, now: number): ThrottleVerdict {
    const recent = this.recentFailures(address, now);
    if (recent.length >= SPRAY_BUDGET) {
      return {
        kind: "throttled",
        retryAfterSeconds: Math.max(1, Math.ceil((recent[0] + SPRAY_WINDOW_MS - now) / 1000)),
      };
    }
    if (userId !== null) {
      const p = this.pairs.get(pairKey(address, userId));
      if (p?.lockedAt != null && now < p.lockedAt + this.lockMs()) return { kind: "locked" };
    }
    return { kind: "ok" };
  }

  /**
   * A wrong password (or an unknown login) from `address`. Returns true when this failure locked the
   * pair and the account has now been locked out from enough addresses to lock it for everyone.
   */
  failure(
    address: string,
    userId: string | null,
    now: number,
  ): { pairLocked: boolean; distributed: boolean } {
    const recent = this.recentFailures(address, now);
    recent.push(now);
    this.remember(this.spray, address, recent);
    if (userId === null) return { pairLocked: false, distributed: false };
    const key = pairKey(address, userId);
    const p = this.pairs.get(key) ?? { failures: 0, lockedAt: null };
    if (p.lockedAt !== null && now >= p.lockedAt + this.lockMs())
      Object.assign(p, { failures: 0, lockedAt: null });
    p.failures++;
    let pairLocked = false;
    if (p.lockedAt === null && p.failures >= this.policy().maxLoginAttempts) {
      p.lockedAt = now;
      pairLocked = true;
    }
    this.remember(this.pairs, key, p);
    return {
      pairLocked,
      distributed: pairLocked && this.lockedAddresses(userId, now) >= DISTRIBUTED_ADDRESSES,
    };
  }

  /**
   * A correct password from `address`: its count for that account starts again, and the attempt
   * counted at `attemptAt` (login counts each attempt before checking it) is no failure.
   */
  success(address: string, userId: string, attemptAt?: number): void {
    this.pairs.delete(pairKey(address, userId));
    if (attemptAt === undefined) return;
    const recent = this.spray.get(address);
    const at = recent?.lastIndexOf(attemptAt) ?? -1;
    if (recent && at >= 0) recent.splice(at, 1);
  }

  /**
   * An attempt counted at `attemptAt` that was never an answer about the password (the directory was
   * unreachable): it counts neither for the address nor for the account.
   */
  forgive(address: string, userId: string | null, attemptAt: number): void {
    const recent = this.spray.get(address);
    const at = recent?.lastIndexOf(attemptAt) ?? -1;
    if (recent && at >= 0) recent.splice(at, 1);
    if (userId === null) return;
    const p = this.pairs.get(pairKey(address, userId));
    if (!p || p.failures === 0) return;
    p.failures--;
    if (p.lockedAt === attemptAt) p.lockedAt = null;
  }

  /** Whether any address is locked out of this account now. */
  anyLock(userId: string, now: number): boolean {
    return this.lockedAddresses(userId, now) > 0;
  }

  /** End every address's lock on this account (an admin unlock); returns whether there was one. */
  unlock(userId: string, now: number): boolean {
    const had = this.anyLock(userId, now);
    for (const key of [...this.pairs.keys()]) if (key.endsWith(`\u0000${userId}`)) this.pairs.delete(key);
    return had;
  }

  /** Accounts some address is locked out of now. */
  lockedUsers(now: number): Set<string> {
    const out = new Set<string>();
    for (const [key, p] of this.pairs)
      if (p.lockedAt !== null && now < p.lockedAt + this.lockMs()) out.add(key.split("\u0000")[1]);
    return out;
  }

  private lockedAddresses(userId: string, now: number): number {
    let n = 0;
    for (const [key, p] of this.pairs) {
      if (key.endsWith(`\u0000${userId}`) && p.lockedAt !== null && now < p.lockedAt + this.lockMs()) n++;
    }
    return n;
  }

  private recentFailures(address: string, now: number): number[] {
    return (this.spray.get(address) ?? []).filter((t) => t > now - SPRAY_WINDOW_MS);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_ENTRIES) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }
}

function pairKey(address: string, userId: string): string {
  return `${address}\u0000${userId}`;
}
