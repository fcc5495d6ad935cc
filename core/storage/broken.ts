/**
 * The error for a request that needs a document whose file on disk cannot be read (a hand edit gone
 * wrong): 500 with a message naming the file, so the person who edited it knows what to fix. The
 * file is never overwritten while it is broken.
 */
import { relative } from "node:path";
import { LarderError } from "../errors.js";

export class BrokenFileError extends LarderError {
  constructor(message: string) {
    super(message, 500, { message, error: true, exception: "BrokenFileError" });
  }
}

export function brokenDocError(root: string, path: string, reason: string): BrokenFileError {
  return new BrokenFileError(
    `${relative(root, path)} cannot be read (${reason}); fix the file by hand or restore it, nothing was written`,
  );
}
