/**
 * The shopping screens' calls to /api (same origin, the session cookie). A failed connection is a
 * `NetworkError` (the change waits in the queue); an answer with an error status is an `HttpError`.
 * Every answer's Date header tells how far this device's clock is from the server's (decision 0085).
 */

export class NetworkError extends Error {}
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let skewMs = 0;
/** Server clock minus this device's, from the last answer (second precision). */
export const clockSkew = (): number => skewMs;

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new NetworkError(e instanceof Error ? e.message : String(e));
  }
  const date = Date.parse(res.headers.get("Date") ?? "");
  if (Number.isFinite(date)) skewMs = date - Date.now();
  const text = await res.text().catch(() => "");
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const detail = (json as { detail?: { message?: string } | unknown[] } | null)?.detail;
    const message =
      detail && !Array.isArray(detail) && typeof detail.message === "string"
        ? detail.message
        : res.statusText;
    throw new HttpError(res.status, message);
  }
  return json as T;
}

export const LISTS = "/api/households/shopping/lists";
export const ITEMS = "/api/households/shopping/items";
