import type { IncomingMessage, ServerResponse } from "node:http";
import type { Actor } from "../../core/actor.js";
import type { UserRecord } from "../../core/schemas/records.js";
import type { Larder } from "../../core/larder.js";
import { ForbiddenError, UnauthorizedError } from "../../core/errors.js";
import { readForm, readJson } from "./body.js";

/** What a handler gets: the request translated, nothing more. */
export class ApiContext {
  private bodyPromise: Promise<unknown> | null = null;
  readonly headers: Record<string, string> = {};

  constructor(
    readonly larder: Larder,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    readonly params: Record<string, string>,
    readonly actor: Actor,
  ) {}

  get query(): URLSearchParams {
    return this.url.searchParams;
  }

  /** Query parameters as a record (last value wins), for zod parsing. */
  queryRecord(): Record<string, string> {
    return Object.fromEntries(this.url.searchParams);
  }

  /** The JSON body, camelised; read once. */
  json<T = unknown>(): Promise<T> {
    this.bodyPromise ??= readJson(this.req, this.larder.config.maxJsonBody);
    return this.bodyPromise as Promise<T>;
  }

  /** The body if a handler read it (and it was JSON): what a 422 echoes as `input`. */
  async bodyIfRead(): Promise<{ value: unknown } | null> {
    if (!this.bodyPromise) return null;
    try {
      return { value: await this.bodyPromise };
    } catch {
      return null;
    }
  }

  form(): Promise<Record<string, string>> {
    return readForm(this.req, this.larder.config.maxJsonBody);
  }

  get user(): UserRecord {
    if (this.actor.kind !== "user") throw new UnauthorizedError();
    return this.actor.user;
  }

  requireAdmin(): UserRecord {
    const u = this.user;
    if (!u.admin) throw new ForbiddenError("Forbidden", "Forbidden");
    return u;
  }

  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
}
