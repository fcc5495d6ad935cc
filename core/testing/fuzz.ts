/**
 * Settings shared by the property tests that feed Larder generated hostile input: how many cases they
 * run (`LARDER_FUZZ_RUNS`, default 60, kept small for CI) and the seed to replay a failure with
 * (`LARDER_FUZZ_SEED`, printed by fast-check when a property fails).
 */
import fc from "fast-check";
import { ZodError } from "zod";
import { LarderError } from "../errors.js";

export const FUZZ_RUNS = Number(process.env.LARDER_FUZZ_RUNS ?? 60);
export const FUZZ_SEED = process.env.LARDER_FUZZ_SEED ? Number(process.env.LARDER_FUZZ_SEED) : undefined;

/** The status the API answers for an error core threw: its own, 422 for a ZodError (web/api/handler.ts), else 500. */
export function statusOf(e: unknown): number {
  if (e instanceof LarderError) return e.status;
  if (e instanceof ZodError) return 422;
  return 500;
}

/**
 * Tries `attempt` on each generated input: counts the inputs it went through with, and keeps, for the
 * test to show, those it threw on as the API would answer with a 5xx. A 4xx is a refusal, which is fine.
 */
export async function tally<T>(
  inputs: fc.Arbitrary<T>,
  attempt: (input: T) => Promise<unknown>,
  runs = FUZZ_RUNS,
): Promise<{ done: number; fivexx: string[] }> {
  let done = 0;
  const fivexx: string[] = [];
  await fc.assert(
    fc.asyncProperty(inputs, async (input) => {
      try {
        await attempt(input);
        done++;
      } catch (e) {
        if (statusOf(e) >= 500) fivexx.push(`${(e as Error).name}: ${(e as Error).message}`);
      }
    }),
    { numRuns: runs, seed: FUZZ_SEED },
  );
  return { done, fivexx };
}
