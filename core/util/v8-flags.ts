/**
 * V8 flags set while the process runs (`v8.setFlagsFromString`), kept in force across worker threads
 * (decision 0188). Node applies its V8 options again when a worker thread's isolate starts, which puts
 * back what node was started with — a heap growth of 20 % set once the folder is open became V8's own
 * growth again after the first sign-in (bcrypt runs on a worker thread) or the first write (the disk
 * thread). So every flag is set here, remembered, and set again once a worker is online.
 */
import { setFlagsFromString } from "node:v8";

/** The flags in force, by name (the last value set wins). */
const inForce = new Map<string, string>();

function nameOf(flag: string): string {
  return flag.replace(/=.*$/, "").replace(/_/g, "-");
}

/** Sets `flag` (`--name=value`) now and again after each worker thread starts. */
export function useV8Flag(flag: string): void {
  inForce.set(nameOf(flag), flag);
  setFlagsFromString(flag);
}

/** Sets every remembered flag again (after a worker thread's start undid them). */
export function reapplyV8Flags(): void {
  for (const flag of inForce.values()) setFlagsFromString(flag);
}

/**
 * Sets the remembered flags again once `worker` is running (its isolate's start resets them): a
 * `Worker`, or a pool's wrapper of one that passes its events on.
 */
export function keepV8FlagsAcross(worker: { once(event: "online", listener: () => void): unknown }): void {
  worker.once("online", reapplyV8Flags);
}
