/**
 * Who is acting in the current request, for work that runs far from the request's own code: git
 * autocommit names the person behind a document write (decision 0063) although JSON documents are
 * written by many services that do not pass the actor down to storage. The HTTP server opens one scope
 * per request; signing a token in notes the actor in it (the scope is a shared object, so a note made deep
 * inside an awaited call is seen by everything else in the same request).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Actor } from "./actor.js";

const scope = new AsyncLocalStorage<{ actor: Actor | null }>();

export function withActorScope<T>(fn: () => T): T {
  return scope.run({ actor: null }, fn);
}

/** Record the authenticated actor of the current scope (no scope: nothing to do). */
export function noteActor(actor: Actor | null): void {
  const s = scope.getStore();
  if (s && actor) s.actor = actor;
}

export function currentActor(): Actor | null {
  return scope.getStore()?.actor ?? null;
}
