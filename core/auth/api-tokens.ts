/**
 * Long-lived API tokens (mealie-api-notes §2) in `.larder/api-tokens.json`, stored as sha256 hashes
 * only: a copied or backed-up folder does not hand out working tokens.
 *
 * Format: `lt_` + base64url of 32 random bytes. Mealie mints JWTs here, but clients only ever send the
 * token back as a Bearer, so an opaque string works for them; the prefix lets the auth layer tell an
 * API token from a session JWT without trying both, and lets secret scanners recognise a leaked one.
 * Since only the hash is kept, the token is shown once, at creation (Mealie lists token strings in
 * `UserOut.tokens`; Larder cannot).
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { ForbiddenError, NotFoundError } from "../errors.js";
import { DataFolder, ensurePrivateDirs } from "../storage/data-folder.js";
import { JsonDoc } from "../storage/json-doc.js";
import { lazySchema } from "../util/lazy-schema.js";

export const API_TOKEN_PREFIX = "lt_";
const TOKEN_RE = /^lt_[A-Za-z0-9_-]{43}$/;

const TokenRecord = lazySchema(() =>
  z.object({
    id: z.number().int().positive(),
    userId: z.string(),
    name: z.string(),
    integrationId: z.string(),
    /** sha256 (hex) of the token string. */
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: z.string(),
  }),
);
type TokenRecord = z.infer<typeof TokenRecord>;

const ApiTokensDoc = lazySchema(() =>
  z.object({
    /** Next id to hand out; ids are never reused, so a deleted token's id cannot name a new one. */
    nextId: z.number().int().positive().default(1),
    tokens: z.array(TokenRecord).default([]),
  }),
);
type ApiTokensDoc = z.infer<typeof ApiTokensDoc>;

/** A token as listed: everything but the secret. */
export interface ApiTokenInfo {
  id: number;
  name: string;
  integrationId: string;
  createdAt: string;
}

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a bearer string has the shape of a Larder API token (as opposed to a session JWT). */
export function looksLikeApiToken(bearer: string): boolean {
  return bearer.startsWith(API_TOKEN_PREFIX);
}

export class ApiTokenStore {
  #byHash = new Map<string, TokenRecord>();

  private constructor(
    /** The backing document (register it with the DocWatcher). */
    readonly doc: JsonDoc<ApiTokensDoc>,
    private readonly now: () => Date,
  ) {
    this.#reindex();
    // Keep the lookup table in step with updates and with reloads of a hand-edited file.
    doc.onChange(() => this.#reindex());
  }

  static async open(folder: DataFolder, options: { now?: () => Date } = {}): Promise<ApiTokenStore> {
    await ensurePrivateDirs(folder);
    const doc = await JsonDoc.open<ApiTokensDoc>(folder.apiTokensJson, {
      defaults: () => ({ nextId: 1, tokens: [] }),
      schema: ApiTokensDoc,
      tmpDir: folder.tmpDir,
      mode: 0o600,
      arraysSortedBy: ["tokens"],
    });
    return new ApiTokenStore(doc, options.now ?? (() => new Date()));
  }

  #reindex(): void {
    this.#byHash = new Map(this.doc.data.tokens.map((t) => [t.hash, t]));
  }

  /** Mint a token. The returned `token` is the only time the secret exists outside the client. */
  async create(
    userId: string,
    name: string,
    integrationId = "generic",
  ): Promise<ApiTokenInfo & { token: string }> {
    const token = API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const createdAt = this.now().toISOString();
    let id = 0;
    await this.doc.update((d) => {
      // Also past any id a hand edit introduced, so ids stay unique.
      id = Math.max(d.nextId, ...d.tokens.map((t) => t.id + 1));
      d.nextId = id + 1;
      d.tokens.push({ id, userId, name, integrationId, hash: hashApiToken(token), createdAt });
    });
    return { token, id, name, integrationId, createdAt };
  }

  /** Who a bearer token belongs to, or null if it is not a live API token. */
  verify(token: string): { userId: string; id: number; integrationId: string; name: string } | null {
    // The shape check keeps arbitrary junk from being hashed; the lookup itself is by hash, so it does
    // not compare secrets byte by byte and leaks nothing through timing.
    if (!TOKEN_RE.test(token)) return null;
    const record = this.#byHash.get(hashApiToken(token));
    return record
      ? { userId: record.userId, id: record.id, integrationId: record.integrationId, name: record.name }
      : null;
  }

  /** A user's tokens, without secrets, in id order. */
  list(userId: string): ApiTokenInfo[] {
    return this.doc.data.tokens
      .filter((t) => t.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map(({ id, name, integrationId, createdAt }) => ({ id, name, integrationId, createdAt }));
  }

  /** Delete one of the user's tokens: 404 if no such id, 403 if it is someone else's. Returns its name. */
  async delete(userId: string, id: number): Promise<{ name: string }> {
    const record = this.doc.data.tokens.find((t) => t.id === id);
    if (!record) throw new NotFoundError("Token not found");
    if (record.userId !== userId) throw new ForbiddenError("You do not have permission to delete this token");
    await this.doc.update((d) => {
      d.tokens = d.tokens.filter((t) => t.id !== id);
    });
    return { name: record.name };
  }

  /** Delete every token of a user (user deletion). Returns how many. */
  async deleteAllForUser(userId: string): Promise<number> {
    const count = this.doc.data.tokens.filter((t) => t.userId === userId).length;
    if (count > 0)
      await this.doc.update((d) => void (d.tokens = d.tokens.filter((t) => t.userId !== userId)));
    return count;
  }
}
