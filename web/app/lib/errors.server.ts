/** Turn core's typed errors (LarderError: a numeric `status`) into Remix responses. */
import { redirect } from "react-router";
import { StorageError, storageError } from "./pure-core.js";

function statusOf(e: unknown): number | null {
  if (e && typeof e === "object" && "status" in e && typeof (e as { status: unknown }).status === "number") {
    return (e as { status: number }).status;
  }
  return null;
}

/** Run a core call; 404 and 403 become error responses (error boundary), 401 a trip to /login. */
export async function coreCall<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const status = statusOf(e);
    if (status === 404) throw new Response("Not Found", { status: 404 });
    if (status === 403) throw new Response("Forbidden", { status: 403 });
    if (status === 401) throw redirect("/login");
    throw e;
  }
}

/**
 * A write the data folder's disk refused (full, read-only, forbidden), as core names it; null for
 * anything else. A form shows its message (what happened, and that nothing was lost) and stays, where
 * the error page left the person guessing (decision 0206).
 */
export function refusedWrite(e: unknown): StorageError | null {
  return e instanceof StorageError ? e : storageError(e);
}

export { statusOf };
