/**
 * bcrypt password hashing (mealie-api-notes §2) off the event loop (ARCHITECTURE §5): a cost-12 hash
 * takes a quarter of a second or more of pure CPU, which on the main thread would stall every request.
 *
 * The work runs in a tiny pool of worker threads. The worker is an inline script that requires
 * bcryptjs by absolute path, so the same code works under tsx and compiled to dist/ (no worker file
 * to locate). Hashes are `$2b$`, as Mealie's Python bcrypt writes them, so migrated hashes verify.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

const BCRYPT_PATH = createRequire(import.meta.url).resolve("bcryptjs");

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const bcrypt = require(workerData.bcryptPath);
parentPort.on("message", (job) => {
  try {
    const result = job.op === "hash"
      ? bcrypt.hashSync(job.password, bcrypt.genSaltSync(job.rounds))
      : bcrypt.compareSync(job.password, job.hash);
    parentPort.postMessage({ id: job.id, ok: true, result });
  } catch (e) {
    parentPort.postMessage({ id: job.id, ok: false, error: String((e && e.message) || e) });
  }
});
`;

type Job = { op: "hash"; password: string; rounds: number } | { op: "compare"; password: string; hash: string };
type Reply = { id: number; ok: true; result: string | boolean } | { id: number; ok: false; error: string };

interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: (v: string | boolean) => void; reject: (e: Error) => void }>;
}

const MAX_WORKERS = 2;
const pool: PoolWorker[] = [];
let nextJobId = 1;

function startWorker(): PoolWorker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath: BCRYPT_PATH } });
  const entry: PoolWorker = { worker, pending: new Map() };
  // Idle workers must never keep the process alive; a busy one is ref'd while it works (see run()).
  worker.unref();
  worker.on("message", (reply: Reply) => {
    const job = entry.pending.get(reply.id);
    if (!job) return;
    entry.pending.delete(reply.id);
    if (entry.pending.size === 0) worker.unref();
    if (reply.ok) job.resolve(reply.result);
    else job.reject(new Error(`bcrypt: ${reply.error}`));
  });
  const fail = (error: Error) => {
    const i = pool.indexOf(entry);
    if (i >= 0) pool.splice(i, 1);
    for (const job of entry.pending.values()) job.reject(error);
    entry.pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`bcrypt worker exited with code ${code}`)));
  pool.push(entry);
  return entry;
}

function run(job: Job): Promise<string | boolean> {
  // Least busy worker; a second one starts only when the first is busy.
  let entry = pool.reduce<PoolWorker | undefined>((best, w) => (!best || w.pending.size < best.pending.size ? w : best), undefined);
  if (!entry || (entry.pending.size > 0 && pool.length < MAX_WORKERS)) entry = startWorker();
  const id = nextJobId++;
  const target = entry;
  return new Promise((resolve, reject) => {
    target.pending.set(id, { resolve, reject });
    // While a job runs the process stays alive to receive its answer.
    target.worker.ref();
    target.worker.postMessage({ id, ...job });
  });
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
  if (!Number.isInteger(rounds) || rounds < 4 || rounds > 31) throw new RangeError(`bcrypt rounds must be 4..31, got ${rounds}`);
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

/** Stop the workers (tests; a server never needs to, they are unref'd). */
export async function stopPasswordWorkers(): Promise<void> {
  const workers = pool.splice(0);
  await Promise.all(workers.map((w) => w.worker.terminate()));
}
