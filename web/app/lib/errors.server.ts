/** Turn core's typed errors (LarderError: a numeric `status`) into Remix responses. */
import { redirect } from "react-router";
import { storageError } from "./pure-core.js";

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

export { statusOf };

/**
 * Core's message for a write the data folder's disk refused (full, read-only, quota), logged as a
 * warning with `what`; null for any other error. A form's action answers it in the form (a toast or
 * an error line) instead of the error page, which would lose what the reader typed (decision 0206).
 */
export function diskRefusal(
  log: { warn(...args: unknown[]): void },
  what: string,
  e: unknown,
): string | null {
  const refused = storageError(e);
  if (!refused) return null;
  log.warn(`${what} not saved: ${refused.message}`);
  return refused.message;
}
