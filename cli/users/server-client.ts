/**
 * Talking to a live server's Mealie API with the token it wrote into `.larder/lock`: the server holds
 * the folder (one writer) and accepts that token as its first admin, so only someone who can read
 * `.larder/` can do this. Errors come back as the CLI's messages and exit codes.
 */
import { CliError, EXIT, type Issue } from "../output.js";
import type { LiveServer } from "../context.js";

export class ServerClient {
  readonly baseUrl: string;

  constructor(
    private readonly lock: LiveServer,
    private readonly dataDir: string,
  ) {
    this.baseUrl = serverUrl(lock);
  }

  /** `body` is sent as JSON, or as multipart when it is a FormData (uploads). */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    opts: { timeoutMs?: number } = {},
  ): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    const form = body instanceof FormData;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.lock.token}`,
          Accept: "application/json",
          ...(body === undefined || form ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : form ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      throw new CliError(
        `A Larder server (pid ${this.lock.pid}) holds ${this.dataDir} but does not answer at ${this.baseUrl} (${cause})`,
        EXIT.failure,
      );
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below with the status
    }
    if (res.ok) return json as T;
    throw httpError(res.status, json, text);
  }
}

/** The lock's host as something we can connect to: a wildcard bind means this machine. */
export function serverUrl(lock: Pick<LiveServer, "host" | "port">): string {
  let host = lock.host || "127.0.0.1";
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "::" || host === "[::]") host = "::1";
  if (host.includes(":") && !host.startsWith("[")) host = `[${host}]`;
  return `http://${host}:${lock.port}`;
}

/** Map Mealie's error shapes (mealie-api-notes §1) to the CLI's messages and exit codes. */
function httpError(status: number, json: unknown, text: string): CliError {
  const detail = (json as { detail?: unknown } | null)?.detail;
  if (status === 422 && Array.isArray(detail)) {
    const issues: Issue[] = detail.map((d: { loc?: unknown[]; msg?: string }) => ({
      field: String(d.loc?.[d.loc.length - 1] ?? ""),
      message: String(d.msg ?? "invalid"),
    }));
    return new CliError("Invalid input", EXIT.invalid, issues);
  }
  const message =
    typeof detail === "string"
      ? detail
      : (detail as { details?: string } | undefined)?.details === "BAD_RECIPE_DATA"
        ? `No recipe was found (BAD_RECIPE_DATA${badRecipeWhy(detail)})`
        : typeof (detail as { message?: unknown } | undefined)?.message === "string"
          ? (detail as { message: string }).message
          : text.slice(0, 200) || `HTTP ${status}`;
  if (status === 409) return new CliError(message, EXIT.conflict);
  if (status === 404) return new CliError(message, EXIT.notFound);
  if (status === 400 || status === 422) return new CliError(message, EXIT.invalid);
  if (status === 401)
    return new CliError(`The server refused the lock token (${status} ${message})`, EXIT.failure);
  // A 403 with a reason is a rule of core (e.g. "you cannot demote yourself"), not a bad token.
  if (status === 403)
    return new CliError(
      message === "Forbidden" ? `The server refused the lock token (${status} ${message})` : message,
      EXIT.failure,
    );
  return new CliError(`The server answered ${status}: ${message}`, EXIT.failure);
}

/** The reason a BAD_RECIPE_DATA detail may carry (the page's own status, decision 0270). */
function badRecipeWhy(detail: unknown): string {
  const why = (detail as { message?: unknown }).message;
  return typeof why === "string" ? `: ${why}` : "";
}
