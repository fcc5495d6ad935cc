#!/usr/bin/env node
/**
 * The bundle's entry (scripts/bundle.mjs): Node's compile cache first, then the CLI. The cache keeps
 * V8's compiled code of the bundle's chunks beside them, so a start after the first skips most of
 * their compilation (decision 0134). Turned on here because only modules loaded after the call use
 * it; where it cannot be written (a read-only install) Node carries on without it.
 */
import * as module from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Node 22.1 and later; NODE_COMPILE_CACHE set by the user wins.
if (typeof module.enableCompileCache === "function" && !process.env.NODE_COMPILE_CACHE) {
  try {
    module.enableCompileCache(join(dirname(fileURLToPath(import.meta.url)), ".compile-cache"));
  } catch {
    // No cache: the same start, compiled as before.
  }
}
await import("./index.js");
