/**
 * The error for a request that needs a document whose file on disk cannot be read (a hand edit gone
 * wrong): 500 with a message naming the file, so the person who edited it knows what to fix. The
 * file is never overwritten while it is broken.
 */
import { relative } from "node:path";
import { ConflictError, LarderError } from "../errors.js";

export class BrokenFileError extends LarderError {
  constructor(message: string) {
    super(message, 500, { message, error: true, exception: "BrokenFileError" });
  }
}

function brokenMessage(root: string, path: string, reason: string): string {
  return `${relative(root, path)} cannot be read (${reason}); fix the file by hand or restore it, nothing was written`;
}

/** A read of a document that was broken from the start: there is no good state to answer with. */
export function brokenDocError(root: string, path: string, reason: string): BrokenFileError {
  return new BrokenFileError(brokenMessage(root, path, reason));
}

/** A write to a broken document: 409, as for every document a hand edit broke; reads keep the last good state. */
export function brokenDocConflict(root: string, path: string, reason: string): ConflictError {
  return new ConflictError(brokenMessage(root, path, reason));
}
