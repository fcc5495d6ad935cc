/** Mealie's "crud route" headers (mealie-api-notes §0): no caching, `updatedAt` as Last-Modified. */
import type { ApiContext } from "../context.js";

export function crudHeaders<T>(ctx: ApiContext, body: T): T {
  ctx.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
  const updated = (body as { updatedAt?: unknown } | null)?.updatedAt;
  if (typeof updated === "string") {
    const d = new Date(updated);
    if (!Number.isNaN(d.getTime())) ctx.setHeader("Last-Modified", d.toUTCString());
  }
  return body;
}
