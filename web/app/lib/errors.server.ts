/** Turn core's typed errors (LarderError: a numeric `status`) into Remix responses. */
import { redirect } from "react-router";

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
