/**
 * For tests only: what a test does when something it needs from outside the project is missing
 * (chromium, slapd, openssl, ../shared/fixtures, an optional npm package). ARCHITECTURE §8: it skips
 * with a message, except under CI=true, where a missing dependency is a failure, not a skip.
 */
export const inCI = process.env.CI === "true";

/**
 * Whether tests needing `what` run: when it is there, and always under CI=true (they then fail, at
 * `requireDependency` or on their own). Otherwise they are skipped, and the warning says why.
 */
export function runsWith(present: boolean, what: string): boolean {
  if (!present && !inCI) console.warn(`skipped, missing: ${what} (under CI=true this is a failure)`);
  return present || inCI;
}

/** Fail with a clear message when `what` is missing (call it where the tests start, e.g. beforeAll). */
export function requireDependency(present: boolean, what: string): void {
  if (!present) throw new Error(`missing: ${what}; required under CI=true (ARCHITECTURE §8)`);
}

/** Inside a test that finds `what` missing: skip it with the reason, or fail under CI=true. */
export function skipOrFail(ctx: { skip(note?: string): never }, what: string): never {
  requireDependency(!inCI, what);
  return ctx.skip(`missing: ${what} (under CI=true this is a failure)`);
}
