/**
 * Password reset tokens in `.larder/reset-tokens.json` (per machine, mode 0600). Only a sha256 of each
 * token is stored, so a copied folder or backup hands out no working reset link; a token is single
 * use and expires. Kept on disk rather than in memory so that a link mailed before a restart still works.
 */
import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import type { DataFolder } from "../storage/data-folder.js";
import { JsonDoc } from "../storage/json-doc.js";

const ResetRecord = z.object({
  userId: z.string(),
  createdAt: z.string(),
  /** Expiry, milliseconds since the epoch. */
  exp: z.number().int(),
});
const ResetTokensDoc = z.object({ tokens: z.record(z.string(), ResetRecord).default({}) });
type ResetTokensDoc = z.infer<typeof ResetTokensDoc>;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export class ResetTokenStore {
  private constructor(
    readonly doc: JsonDoc<ResetTokensDoc>,
    private readonly now: () => number,
  ) {}

  static async open(folder: DataFolder, options: { now?: () => number } = {}): Promise<ResetTokenStore> {
    const doc = await JsonDoc.open<ResetTokensDoc>(join(folder.privateDir, "reset-tokens.json"), {
      defaults: () => ({ tokens: {} }),
      schema: ResetTokensDoc,
      tmpDir: folder.tmpDir,
      mode: 0o600,
    });
    return new ResetTokenStore(doc, options.now ?? Date.now);
  }

  /** Mint a token for a user, valid for `ttlSeconds`. Expired tokens are pruned in the same write. */
  async create(userId: string, ttlSeconds: number): Promise<string> {
    const token = randomBytes(24).toString("base64url");
    const now = this.now();
    await this.doc.update((d) => {
      prune(d, now);
      d.tokens[hashToken(token)] = {
        userId,
        createdAt: new Date(now).toISOString(),
        exp: now + ttlSeconds * 1000,
      };
    });
    return token;
  }

  /**
   * Spend a token: returns its user id, or null when it is unknown, used or expired. The token is
   * deleted whether or not it was still valid, so it can never be tried twice.
   */
  async consume(token: string): Promise<string | null> {
    const key = hashToken(token);
    const found = Object.hasOwn(this.doc.data.tokens, key) ? this.doc.data.tokens[key] : null;
    if (!found) return null;
    let userId: string | null = null;
    await this.doc.update((d) => {
      const entry = Object.hasOwn(d.tokens, key) ? d.tokens[key] : null;
      // Decided inside the write: two concurrent uses of the same token cannot both succeed.
      if (entry && entry.exp > this.now()) userId = entry.userId;
      delete d.tokens[key];
    });
    return userId;
  }

  /** Forget every token of a user (password changed, user deleted). */
  async revokeAllForUser(userId: string): Promise<number> {
    const keys = Object.entries(this.doc.data.tokens)
      .filter(([, t]) => t.userId === userId)
      .map(([k]) => k);
    if (keys.length === 0) return 0;
    await this.doc.update((d) => {
      for (const k of keys) delete d.tokens[k];
    });
    return keys.length;
  }

  /** Drop expired tokens (the scheduler's cleanup job). */
  async prune(): Promise<number> {
    const now = this.now();
    const count = Object.values(this.doc.data.tokens).filter((t) => t.exp <= now).length;
    if (count > 0) await this.doc.update((d) => void prune(d, now));
    return count;
  }
}

function prune(d: ResetTokensDoc, now: number): void {
  for (const [k, t] of Object.entries(d.tokens)) if (t.exp <= now) delete d.tokens[k];
}
