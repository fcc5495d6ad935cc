/**
 * Password hashes and lockout counters in `.larder/credentials.json` (ARCHITECTURE §2): per machine,
 * never in git, so a folder cloned elsewhere has its users but no passwords (`larder user passwd`).
 * Keyed by user id; public profiles stay in `users.json`.
 */
import { z } from "zod";
import { DataFolder, ensurePrivateDirs } from "../storage/data-folder.js";
import { JsonDoc } from "../storage/json-doc.js";
import {
  UNLOCKED,
  evaluateLogin,
  expireLock,
  isLocked,
  type LockoutPolicy,
  type LoginOutcome,
} from "./lockout.js";
import { dummyVerify, hashPassword, verifyPassword } from "./passwords.js";

const CredentialRecord = z.object({
  /** bcrypt hash; null when no password is set (OIDC/LDAP users, or a freshly cloned folder). */
  passwordHash: z.string().nullable().default(null),
  loginAttempts: z.number().int().min(0).default(0),
  lockedAt: z.string().nullable().default(null),
  /** Still the default password (demo/first start), for the "change your password" prompt. */
  passwordIsDefault: z.boolean().optional(),
});
export type CredentialRecord = z.infer<typeof CredentialRecord>;

const CredentialsDoc = z.object({ users: z.record(z.string(), CredentialRecord).default({}) });
type CredentialsDoc = z.infer<typeof CredentialsDoc>;

export interface CredentialStoreOptions {
  policy: LockoutPolicy;
  /** bcrypt cost for new hashes and for the dummy check of unknown users. */
  bcryptRounds: number;
  now?: () => Date;
}

export class CredentialStore {
  private constructor(
    /** The backing document (register it with the DocWatcher). */
    readonly doc: JsonDoc<CredentialsDoc>,
    private readonly options: CredentialStoreOptions,
  ) {}

  static async open(folder: DataFolder, options: CredentialStoreOptions): Promise<CredentialStore> {
    await ensurePrivateDirs(folder);
    const doc = await JsonDoc.open<CredentialsDoc>(folder.credentialsJson, {
      defaults: () => ({ users: {} }),
      schema: CredentialsDoc,
      tmpDir: folder.tmpDir,
      mode: 0o600,
    });
    return new CredentialStore(doc, options);
  }

  #now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  /** The stored record of a user, or null. */
  get(userId: string): CredentialRecord | null {
    return Object.hasOwn(this.doc.data.users, userId) ? this.doc.data.users[userId] : null;
  }

  hasPassword(userId: string): boolean {
    return this.get(userId)?.passwordHash != null;
  }

  /**
   * The file and why it cannot be read, when it cannot: then nobody has a password as far as this
   * store knows, though the file may hold everyone's, and it is never written until it is fixed.
   */
  get unreadable(): { path: string; message: string } | null {
    const broken = this.doc.broken;
    return broken ? { path: this.doc.path, message: broken.message } : null;
  }

  /** Hash (off the event loop) and store a new password. Lockout counters are left as they are. */
  async setPassword(userId: string, password: string, options: { isDefault?: boolean } = {}): Promise<void> {
    await this.setPasswordHash(userId, await hashPassword(password, this.options.bcryptRounds), options);
  }

  /** Store an existing bcrypt hash (a Mealie migration brings its users' `$2b$` hashes). */
  async setPasswordHash(
    userId: string,
    passwordHash: string | null,
    options: { isDefault?: boolean } = {},
  ): Promise<void> {
    await this.doc.update((d) => {
      const current = Object.hasOwn(d.users, userId) ? d.users[userId] : { ...UNLOCKED, passwordHash: null };
      const next: CredentialRecord = { ...current, passwordHash };
      if (options.isDefault) next.passwordIsDefault = true;
      else delete next.passwordIsDefault;
      d.users[userId] = next;
    });
  }

  /**
   * Check a login. `userId` null (unknown user) or a user without a password still costs one bcrypt
   * compare, so the answer time does not tell whether the account exists. A locked account answers
   * "locked" without checking the password. The caller maps "unauthorized" to 401, "locked" to 423.
   */
  async authenticate(userId: string | null, password: string): Promise<LoginOutcome> {
    const record = userId === null ? null : this.get(userId);
    if (userId === null || !record?.passwordHash) {
      await dummyVerify(password, this.options.bcryptRounds);
      return "unauthorized";
    }
    const now = this.#now();
    if (isLocked(expireLock(record, this.options.policy, now), this.options.policy, now)) return "locked";
    const matches = await verifyPassword(password, record.passwordHash, this.options.bcryptRounds);
    let outcome: LoginOutcome = "unauthorized";
    await this.doc.update((d) => {
      // Decide on the latest stored state: concurrent attempts must all be counted.
      const latest = Object.hasOwn(d.users, userId) ? d.users[userId] : { ...record, ...UNLOCKED };
      const decision = evaluateLogin(latest, this.options.policy, this.#now(), matches);
      outcome = decision.outcome;
      d.users[userId] = { ...latest, ...decision.state };
    });
    return outcome;
  }

  /** Whether the user is locked out now. */
  isLocked(userId: string): boolean {
    const record = this.get(userId);
    return record !== null && isLocked(record, this.options.policy, this.#now());
  }

  /** Lock a user now, for everyone (the distributed-attack rule of login-throttle.ts). */
  async lockNow(userId: string): Promise<void> {
    if (!this.get(userId)) return;
    const lockedAt = this.#now().toISOString();
    await this.doc.update((d) => void (d.users[userId] = { ...d.users[userId], lockedAt }));
  }

  /** Unlock one user (admin action). */
  async unlock(userId: string): Promise<void> {
    const record = this.get(userId);
    if (!record || (record.loginAttempts === 0 && record.lockedAt === null)) return;
    await this.doc.update((d) => void (d.users[userId] = { ...d.users[userId], ...UNLOCKED }));
  }

  /** The hourly job: clear locks that have expired. Returns how many users were unlocked. */
  async unlockExpired(now: Date = this.#now()): Promise<number> {
    const policy = this.options.policy;
    const expired = Object.entries(this.doc.data.users).filter(
      ([, r]) => r.lockedAt !== null && !isLocked(r, policy, now),
    );
    if (expired.length === 0) return 0;
    await this.doc.update((d) => {
      for (const [id] of expired) d.users[id] = { ...d.users[id], ...UNLOCKED };
    });
    return expired.length;
  }

  /** `POST /api/admin/users/unlock?force=true`: unlock every locked user. Returns how many. */
  async unlockAll(): Promise<number> {
    const locked = Object.entries(this.doc.data.users).filter(
      ([, r]) => r.lockedAt !== null || r.loginAttempts > 0,
    );
    if (locked.length === 0) return 0;
    await this.doc.update((d) => {
      for (const [id] of locked) d.users[id] = { ...d.users[id], ...UNLOCKED };
    });
    return locked.filter(([, r]) => r.lockedAt !== null).length;
  }

  /** Forget a user's credentials (user deletion). */
  async remove(userId: string): Promise<void> {
    if (!this.get(userId)) return;
    await this.doc.update((d) => void delete d.users[userId]);
  }
}
