/**
 * V8 flags set while the process runs (`v8.setFlagsFromString`), kept in force across worker threads
 * (decision 0188). Starting a worker thread's isolate puts V8's flags back as node was started with
 * them — a heap growth of 20 % set once the folder is open became V8's own growth again after the
 * first sign-in (bcrypt runs on a worker thread) or the first write (the disk thread). So every flag is
 * set here and remembered; each thread sets them again as the first thing it runs (it finds them in its
 * environment, a copy of the parent's taken when it starts), and the parent sets them once more when
 * the thread is online. The flags are process-wide, so the sooner the better: until then the server's
 * own heap runs with node's values (decision 0189).
 */
import { setFlagsFromString } from "node:v8";

/** The variable a worker thread reads its flags from (space-separated). */
export const V8_FLAGS_ENV = "LARDER_V8_FLAGS";

/**
 * The same as `applyInheritedV8Flags`, as source text for a thread whose code is a string (node's own
 * modules only): the first statement it runs.
 */
export const APPLY_INHERITED_V8_FLAGS_SOURCE = `{
  const flags = process.env.${V8_FLAGS_ENV};
  if (flags) {
    const { setFlagsFromString } = process.getBuiltinModule("node:v8");
    for (const flag of flags.split(" ")) if (flag) setFlagsFromString(flag);
  }
}`;

/** The flags in force, by name (the last value set wins). */
const inForce = new Map<string, string>();

function nameOf(flag: string): string {
  return flag.replace(/=.*$/, "").replace(/_/g, "-");
}

/** Sets `flag` (`--name=value`) now and again after each worker thread starts. */
export function useV8Flag(flag: string): void {
  inForce.set(nameOf(flag), flag);
  process.env[V8_FLAGS_ENV] = [...inForce.values()].join(" ");
  setFlagsFromString(flag);
}

/** Sets every remembered flag again (after a worker thread's start undid them). */
export function reapplyV8Flags(): void {
  for (const flag of inForce.values()) setFlagsFromString(flag);
}

/** In a worker thread, first thing: sets the flags its parent had in force when it started the thread. */
export function applyInheritedV8Flags(): void {
  const flags = process.env[V8_FLAGS_ENV];
  if (!flags) return;
  for (const flag of flags.split(" ")) if (flag) setFlagsFromString(flag);
}

/**
 * Sets the remembered flags again once `worker` is running (its isolate's start resets them): a
 * `Worker`, or a pool's wrapper of one that passes its events on.
 */
export function keepV8FlagsAcross(worker: { once(event: "online", listener: () => void): unknown }): void {
  worker.once("online", reapplyV8Flags);
}
