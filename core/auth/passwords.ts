/**
 * bcrypt password hashing (mealie-api-notes §2) off the event loop (ARCHITECTURE §5): a cost-12 hash
 * takes a quarter of a second or more of pure CPU, which on the main thread would stall every request.
 *
 * The work runs on the shared worker pool (workers/pool.ts), which loads on the first sign-in. Hashes are
 * `$2b$`, as Mealie's Python bcrypt writes them, so migrated hashes verify.
 */
import { randomBytes } from "node:crypto";
import { runInPool, stopWorkerPool } from "../workers/pool.js";

type Job =
  { op: "hash"; password: string; rounds: number } | { op: "compare"; password: string; hash: string };

async function run(job: Job): Promise<string | boolean> {
  try {
    return job.op === "hash" ? await runInPool(job) : await runInPool(job);
  } catch (e) {
    throw new Error(`bcrypt: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** What a test can observe of the hashing: every bcrypt operation, including the dummy one. */
export type BcryptObservation = { op: "hash" } | { op: "verify"; dummy: boolean };
const observers = new Set<(o: BcryptObservation) => void>();

/** Observe bcrypt calls (tests use it to prove an unknown user still costs a bcrypt compare). */
export function observeBcrypt(listener: (o: BcryptObservation) => void): () => void {
  observers.add(listener);
  return () => observers.delete(listener);
}

function notify(o: BcryptObservation): void {
  for (const listener of observers) listener(o);
}

/** bcrypt-hash a password at the given cost (Mealie's default is 12). */
export async function hashPassword(password: string, rounds: number): Promise<string> {
  if (!Number.isInteger(rounds) || rounds < 4 || rounds > 31)
    throw new RangeError(`bcrypt rounds must be 4..31, got ${rounds}`);
  notify({ op: "hash" });
  return (await run({ op: "hash", password, rounds })) as string;
}

const BCRYPT_RE = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * Check a password against a stored bcrypt hash ($2a$, $2b$ or $2y$). A stored value that is not a
 * bcrypt hash (Mealie stores "LDAP" or "OIDC" for such users) never matches, after the same work as a
 * real check at `rounds`.
 */
export async function verifyPassword(password: string, hash: string, rounds = 12): Promise<boolean> {
  if (!BCRYPT_RE.test(hash)) {
    await dummyVerify(password, rounds);
    return false;
  }
  notify({ op: "verify", dummy: false });
  return (await run({ op: "compare", password, hash })) === true;
}

/** A fixed hash at cost 12, of a random string nobody knows; other costs are made on first use. */
const FIXED_HASH_12 = "$2b$12$/Z0c93fsQ4LqtmYR0FsI8OcSzjggbJtC18JxIhJKntam4fk99HtyS";
const dummyHashes = new Map<number, Promise<string>>([[12, Promise.resolve(FIXED_HASH_12)]]);

/**
 * Spend the time of a real verification for a user that does not exist, so the response time does not
 * reveal whether a username is registered. Always false. Pass the cost new hashes use.
 */
export async function dummyVerify(password: string, rounds = 12): Promise<false> {
  let hash = dummyHashes.get(rounds);
  if (!hash) {
    hash = run({ op: "hash", password: randomBytes(24).toString("base64"), rounds }) as Promise<string>;
    dummyHashes.set(rounds, hash);
    hash.catch(() => dummyHashes.delete(rounds));
  }
  notify({ op: "verify", dummy: true });
  await run({ op: "compare", password, hash: await hash });
  return false;
}

/** Stop the worker threads (tests; a server never needs to, they are unref'd). */
export async function stopPasswordWorkers(): Promise<void> {
  await stopWorkerPool();
}
