/**
 * Server-side sessions in `.larder/sessions.json` (ARCHITECTURE §5). Each session JWT names its
 * session id; a token is accepted only while its session is here and unexpired, so logout, a password
 * change or a restore really end sessions even though the JWT itself would still verify.
 */
import { randomBytes } from "node:crypto";
import { rename } from "node:fs/promises";
import { z } from "zod";
import { DataFolder, ensurePrivateDirs } from "../storage/data-folder.js";
import { JsonDoc } from "../storage/json-doc.js";
import type { Logger } from "../log/logger.js";

const SessionRecord = z.object({
  userId: z.string(),
  createdAt: z.string(),
  /** Expiry in seconds since the epoch, the same value as the JWT's `exp`. */
  exp: z.number().int(),
});
export type SessionRecord = z.infer<typeof SessionRecord>;

const SessionsDoc = z.object({ sessions: z.record(z.string(), SessionRecord).default({}) });
type SessionsDoc = z.infer<typeof SessionsDoc>;

export class SessionStore {
  private constructor(
    /** The backing document (register it with the DocWatcher). */
    readonly doc: JsonDoc<SessionsDoc>,
    private readonly now: () => Date,
  ) {}

  static async open(
    folder: DataFolder,
    options: { now?: () => Date; log?: Pick<Logger, "warn"> } = {},
  ): Promise<SessionStore> {
    await ensurePrivateDirs(folder);
    const open = () =>
      JsonDoc.open<SessionsDoc>(folder.sessionsJson, {
        defaults: () => ({ sessions: {} }),
        schema: SessionsDoc,
        tmpDir: folder.tmpDir,
        mode: 0o600,
        reportsOwnBreakage: true,
      });
    let doc = await open();
    if (doc.broken) {
      // Only the server's record of who is signed in, never a person's edit: kept aside for a look,
      // and everyone signs in again, rather than no one being able to sign in until it is fixed by hand.
      const aside = `${folder.sessionsJson}.broken-${Date.now()}`;
      await rename(folder.sessionsJson, aside);
      options.log?.warn(
        `${folder.sessionsJson} could not be read (${doc.broken.message}): moved to ${aside}; everyone signs in again`,
      );
      doc = await open();
    }
    return new SessionStore(doc, options.now ?? (() => new Date()));
  }

  #nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** Start a session; expired ones are pruned in the same write. */
  async create(userId: string, ttlSeconds: number): Promise<{ sid: string; exp: number }> {
    const sid = randomBytes(18).toString("base64url");
    const now = this.#nowSeconds();
    const exp = now + Math.max(1, Math.floor(ttlSeconds));
    await this.doc.update((d) => {
      pruneExpired(d, now);
      d.sessions[sid] = { userId, createdAt: this.now().toISOString(), exp };
    });
    return { sid, exp };
  }

  /**
   * Push a live session's expiry out (token refresh). The session id stays, so every token issued for it
   * keeps working until its own `exp`, and logout still ends them all at once. Null if it is gone.
   */
  async extend(sid: string, ttlSeconds: number): Promise<{ sid: string; exp: number } | null> {
    const current = this.get(sid);
    if (!current) return null;
    const exp = Math.max(current.exp, this.#nowSeconds() + Math.max(1, Math.floor(ttlSeconds)));
    if (exp !== current.exp) {
      await this.doc.update((d) => {
        if (Object.hasOwn(d.sessions, sid)) d.sessions[sid].exp = exp;
      });
    }
    return { sid, exp };
  }

  /** The session, if it exists and has not expired. */
  get(sid: string): SessionRecord | null {
    const s = Object.hasOwn(this.doc.data.sessions, sid) ? this.doc.data.sessions[sid] : undefined;
    return s && s.exp > this.#nowSeconds() ? s : null;
  }

  /** Whether a token's session is live (and, when given, belongs to that user). */
  isActive(sid: string, userId?: string): boolean {
    const s = this.get(sid);
    return s !== null && (userId === undefined || s.userId === userId);
  }

  /** End one session (logout). Returns whether it existed. */
  async revoke(sid: string): Promise<boolean> {
    if (!Object.hasOwn(this.doc.data.sessions, sid)) return false;
    await this.doc.update((d) => {
      delete d.sessions[sid];
    });
    return true;
  }

  /** End every session of a user (password change, deletion, restore), optionally keeping one. */
  async revokeAllForUser(userId: string, options: { except?: string } = {}): Promise<number> {
    const doomed = Object.entries(this.doc.data.sessions).filter(
      ([sid, s]) => s.userId === userId && sid !== options.except,
    );
    if (doomed.length === 0) return 0;
    await this.doc.update((d) => {
      for (const [sid] of doomed) delete d.sessions[sid];
    });
    return doomed.length;
  }

  /** Drop expired sessions (the scheduler's cleanup job). */
  async prune(): Promise<number> {
    const now = this.#nowSeconds();
    const count = Object.values(this.doc.data.sessions).filter((s) => s.exp <= now).length;
    if (count > 0) await this.doc.update((d) => void pruneExpired(d, now));
    return count;
  }
}

function pruneExpired(d: SessionsDoc, nowSeconds: number): void {
  for (const [sid, s] of Object.entries(d.sessions)) if (s.exp <= nowSeconds) delete d.sessions[sid];
}
