/**
 * Sign-in and sessions (ARCHITECTURE §5, mealie-api-notes §2): form login by username or e-mail,
 * lockout, session JWTs whose session id is checked server-side (so logout and password changes really
 * end sessions), long-lived API tokens stored hashed, password reset tokens.
 */
import { noteActor } from "../actor-scope.js";
import { timingSafeEqual } from "node:crypto";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import { BadRequestError, LockedError, TooManyRequestsError, UnauthorizedError } from "../errors.js";
import { DISTRIBUTED_ADDRESSES, LoginThrottle } from "../auth/login-throttle.js";
import { CredentialStore } from "../auth/credentials.js";
import { newId } from "../util/ids.js";
import { SessionStore } from "../auth/sessions.js";
import { ApiTokenStore, looksLikeApiToken } from "../auth/api-tokens.js";
import { signSessionJwt, verifySessionJwt } from "../auth/jwt.js";
import { loadSecrets } from "../storage/secrets.js";
import { stopPasswordWorkers, verifyPassword } from "../auth/passwords.js";
import { FIRST_ADMIN_EMAIL } from "./first-admin.js";
import { ResetTokenStore } from "./reset-tokens.js";
import { superUserIdOf } from "../policy/users.js";
import { DirectoryUnavailableError, ExternalSignIn } from "../auth/external.js";
import type { CallbackParams } from "../auth/oidc.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "folder" | "groups" | "log" | "site" | "users">;

const REMEMBER_ME_SECONDS = 14 * 24 * 3600;
const RESET_TOKEN_SECONDS = 3600;

/** The time every store of this service reads; replaceable so lockout and token expiry can be tested. */
interface Clock {
  now: () => Date;
}

export class AuthService {
  private localAdminToken: string | null = null;
  /** Per-address login throttling (decision 0018). */
  private readonly throttle = new LoginThrottle(() => ({
    maxLoginAttempts: this.larder.config.maxLoginAttempts,
    lockoutHours: this.larder.config.lockoutHours,
  }));
  /** LDAP and OIDC sign-in (decision 0010). */
  readonly external: ExternalSignIn;

  private constructor(
    private larder: Deps,
    private credentials: CredentialStore,
    private sessions: SessionStore,
    private tokens: ApiTokenStore,
    private resetTokens: ResetTokenStore,
    private secret: Uint8Array,
    private clock: Clock,
  ) {
    this.external = new ExternalSignIn(larder);
  }

  static async open(larder: Deps): Promise<AuthService> {
    const { folder, config } = larder;
    const clock: Clock = { now: () => new Date() };
    const now = () => clock.now();
    const credentials = await CredentialStore.open(folder, {
      // The stored lock is set by the throttle's distributed-attack rule only (lockNow); the stored
      // counter still counts every wrong password, as Mealie's loginAttemps does.
      policy: { maxLoginAttempts: Number.MAX_SAFE_INTEGER, lockoutHours: config.lockoutHours },
      bcryptRounds: config.bcryptRounds,
      now,
    });
    const sessions = await SessionStore.open(folder, { now, log: larder.log });
    const tokens = await ApiTokenStore.open(folder, { now });
    const resetTokens = await ResetTokenStore.open(folder, { now: () => now().getTime() });
    const { jwtSecret } = await loadSecrets(folder);
    return new AuthService(larder, credentials, sessions, tokens, resetTokens, jwtSecret, clock);
  }

  /** Replace the clock (tests move time forward to see a lockout or a token expire). */
  useClock(now: () => Date): void {
    this.clock.now = now;
  }

  /** The time as the stores of people (sessions, lockout, reset and invitation tokens) see it. */
  now(): Date {
    return this.clock.now();
  }

  async close(): Promise<void> {
    await stopPasswordWorkers();
  }

  /** The running server's lock token (`.larder/lock`): the local CLI acts as the first admin with it. */
  setLocalAdminToken(token: string | null): void {
    this.localAdminToken = token;
  }

  /** The token set above (kept across a reload of the Larder after a restore). */
  getLocalAdminToken(): string | null {
    return this.localAdminToken;
  }

  hasPassword(userId: string): boolean {
    return this.credentials.hasPassword(userId);
  }

  /** `.larder/credentials.json` and its parse error, when it cannot be read. */
  credentialsUnreadable(): { path: string; message: string } | null {
    return this.credentials.unreadable;
  }

  /**
   * The first admin's username when no admin can sign in with a password here: a folder cloned from git
   * brings its users but not their passwords (`.larder/` stays out of git). Null when password sign-in
   * is off, or an admin signs in through LDAP or OIDC or has a password.
   */
  adminWithoutPassword(): string | null {
    if (!this.larder.config.allowPasswordLogin) return null;
    // Their passwords may well be in the file that cannot be read: credentialsUnreadable says so.
    if (this.credentials.unreadable) return null;
    const admins = this.larder.users.all().filter((u) => u.admin);
    if (admins.length === 0) return null;
    if (admins.some((u) => u.authMethod !== "Mealie" || this.hasPassword(u.id))) return null;
    return admins[0].username;
  }

  async setPassword(userId: string, password: string, opts: { isDefault?: boolean } = {}): Promise<void> {
    await this.credentials.setPassword(userId, password, opts);
  }

  /**
   * Create an account with a password: the password is stored under the new id before the account is
   * written, and dropped again if that fails. A process killed in between (hashing takes a while)
   * leaves a password of nobody's, never an account nobody can sign in to (decision 0206).
   */
  async withPassword<T>(
    password: string,
    create: (id: string) => Promise<T>,
    opts: { isDefault?: boolean } = {},
  ): Promise<T> {
    const id = newId();
    await this.credentials.setPassword(id, password, opts);
    try {
      return await create(id);
    } catch (e) {
      await this.credentials.remove(id).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Change a password and end every other session of the user, and any reset link still in the
   * mail. `keepSessionId` is the session that made the change: its user stays signed in.
   */
  async changePassword(userId: string, password: string, keepSessionId?: string): Promise<void> {
    await this.credentials.setPassword(userId, password);
    await this.sessions.revokeAllForUser(userId, keepSessionId ? { except: keepSessionId } : {});
    await this.resetTokens.revokeAllForUser(userId);
  }

  /** Whether `password` is the user's current one. Not a login: the lockout counter is untouched. */
  async verifyCurrentPassword(userId: string, password: string): Promise<boolean> {
    const hash = this.credentials.get(userId)?.passwordHash ?? null;
    return verifyPassword(password, hash ?? "", this.larder.config.bcryptRounds);
  }

  /** Whether the user is locked out right now, for everyone or for some client address. */
  isLocked(userId: string): boolean {
    return this.credentials.isLocked(userId) || this.throttle.anyLock(userId, this.clock.now().getTime());
  }

  /** Unlock one user (every address's lock too); returns whether they were locked. */
  async unlockUser(userId: string): Promise<boolean> {
    const was = this.credentials.isLocked(userId);
    await this.credentials.unlock(userId);
    return this.throttle.unlock(userId, this.clock.now().getTime()) || was;
  }

  /**
   * `POST /admin/users/unlock`: without `force`, only locks that have run out (the hourly job);
   * with it, every locked user, per-address locks included. Returns how many were unlocked.
   */
  async unlockUsers(force: boolean): Promise<number> {
    if (!force) return this.credentials.unlockExpired();
    const now = this.clock.now().getTime();
    const users = new Set(this.throttle.lockedUsers(now));
    for (const id of users) this.throttle.unlock(id, now);
    for (const u of this.larder.users.all()) if (this.credentials.isLocked(u.id)) users.add(u.id);
    await this.credentials.unlockAll();
    return users.size;
  }

  /** Everything per machine about a user: password, lockout, sessions, API tokens, reset links. */
  async forgetUser(userId: string): Promise<void> {
    await this.credentials.remove(userId);
    await this.sessions.revokeAllForUser(userId);
    await this.tokens.deleteAllForUser(userId);
    await this.resetTokens.revokeAllForUser(userId);
  }

  /** The periodic cleanup: expired sessions, reset tokens and locks. */
  async prune(): Promise<void> {
    await this.sessions.prune();
    await this.resetTokens.prune();
    await this.credentials.unlockExpired();
  }

  /** startup-info `isFirstLogin`: the first-start admin still has its default password. */
  async isFirstLogin(): Promise<boolean> {
    const u = this.larder.users.all().find((x) => x.email.toLowerCase() === FIRST_ADMIN_EMAIL);
    return u ? this.credentials.get(u.id)?.passwordIsDefault === true : false;
  }

  private sessionSeconds(rememberMe: boolean): number {
    const base = this.larder.config.tokenTimeHours * 3600;
    return rememberMe ? Math.max(base, REMEMBER_ME_SECONDS) : base;
  }

  private async issue(userId: string, seconds: number): Promise<{ token: string; maxAge: number }> {
    const { sid, exp } = await this.sessions.create(userId, seconds);
    return { token: await signSessionJwt(this.secret, { userId, sessionId: sid, exp }), maxAge: seconds };
  }

  /**
   * POST /auth/token: 401 "Unauthorized" on bad credentials, 423 while locked (for this client
   * address, or for everyone), 429 when the address is over its budget (decision 0018). `client` is
   * the client's address as web/ resolved it (trusted proxies honoured); "" when unknown.
   */
  async login(
    login: string,
    password: string,
    opts: { rememberMe?: boolean; client?: string } = {},
  ): Promise<{ token: string; maxAge: number }> {
    if (!this.larder.config.allowPasswordLogin) throw new UnauthorizedError("Password login is disabled");
    const client = opts.client ?? "";
    const user = login.trim() ? this.larder.users.byLogin(login) : null;
    const now = this.clock.now().getTime();
    const verdict = this.throttle.check(client, user?.id ?? null, now);
    if (verdict.kind === "throttled") throw new TooManyRequestsError(verdict.retryAfterSeconds);
    if (verdict.kind === "locked") throw new LockedError();
    // Counted as a failure before the password is checked, and forgiven if it was right: guesses sent
    // all at once would otherwise each pass the check while the others are still being hashed, and
    // a directory's (LDAP) wrong passwords count as much as local ones.
    const { distributed } = this.throttle.failure(client, user?.id ?? null, now);
    // LDAP first for people unknown here and for LDAP accounts (decision 0010); the rest go on.
    const viaLdap = await this.external.ldapLogin(login, password, user).catch((e: unknown) => {
      // A directory that is down says nothing about the password: an outage must not lock anyone out.
      if (e instanceof DirectoryUnavailableError) this.throttle.forgive(client, user?.id ?? null, now);
      throw e;
    });
    if (viaLdap) {
      this.throttle.success(client, viaLdap.id, now);
      if (user && viaLdap.id !== user.id) this.throttle.success(client, user.id, now);
      return this.issue(viaLdap.id, this.sessionSeconds(opts.rememberMe ?? false));
    }
    const eligible = user && user.authMethod === "Mealie" ? user.id : null;
    const outcome = await this.credentials.authenticate(eligible, password);
    if (outcome === "locked") throw new LockedError();
    if (outcome !== "ok" || !user) {
      if (distributed && user) await this.lockAccount(user.id);
      throw new UnauthorizedError("Unauthorized");
    }
    this.throttle.success(client, user.id, now);
    return this.issue(user.id, this.sessionSeconds(opts.rememberMe ?? false));
  }

  /** Lock an account for everyone; its sessions end (a session must not outlive the lock that protects it). */
  private async lockAccount(userId: string): Promise<void> {
    await this.credentials.lockNow(userId);
    const ended = await this.sessions.revokeAllForUser(userId);
    this.larder.log.warn(
      `account ${userId} locked: wrong passwords from ${DISTRIBUTED_ADDRESSES} or more addresses; ${ended} session(s) ended`,
    );
  }

  /** GET /auth/oauth: the IdP URL to send the browser to, and the cookie tying the sign-in to it. */
  oidcBegin(binding: string | null): Promise<{ url: string; binding: string; maxAge: number }> {
    return this.external.oidcBegin(binding);
  }

  /** GET /auth/oauth/callback: a session for the person the IdP vouched for (OIDC_REMEMBER_ME: 14 days). */
  async oidcLogin(
    params: CallbackParams,
    binding: string | null,
  ): Promise<{ token: string; maxAge: number; landing: "redirect" | "json" }> {
    const { user, rememberMe, landing } = await this.external.oidcComplete(params, binding);
    return { ...(await this.issue(user.id, this.sessionSeconds(rememberMe))), landing };
  }

  /**
   * A new token for the same session. The token it was called with stays valid until it expires, as in
   * Mealie: a client that refreshes while other requests are in flight must not see them fail. Logout,
   * a password change and a restore still end the session and so every token of it.
   */
  async refresh(actor: Actor): Promise<{ token: string; maxAge: number }> {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const seconds = this.sessionSeconds(false);
    const kept = actor.sessionId ? await this.sessions.extend(actor.sessionId, seconds) : null;
    if (!kept) return this.issue(actor.user.id, seconds);
    return {
      token: await signSessionJwt(this.secret, { userId: actor.user.id, sessionId: kept.sid, exp: kept.exp }),
      maxAge: seconds,
    };
  }

  async logout(actor: Actor): Promise<void> {
    if (actor.kind === "user" && actor.sessionId) await this.sessions.revoke(actor.sessionId);
  }

  /** A bearer (session JWT, API token or the local admin token) → the actor, or null. */
  async authenticateToken(token: string): Promise<Actor | null> {
    const actor = await this.actorOfToken(token);
    noteActor(actor);
    return actor;
  }

  private async actorOfToken(token: string): Promise<Actor | null> {
    if (this.localAdminToken && safeEqual(token, this.localAdminToken)) {
      // The super user, as for local CLI commands (cli/users/local.ts), so both modes act alike.
      const id = superUserIdOf(this.larder.users.all());
      const admin = id ? this.larder.users.byId(id) : null;
      return admin ? { kind: "user", user: admin, integrationId: "larder-cli" } : null;
    }
    if (looksLikeApiToken(token)) {
      const hit = this.tokens.verify(token);
      const user = hit ? this.larder.users.byId(hit.userId) : null;
      // A locked account's tokens wait for the unlock, as its sessions ended: one a guesser made
      // meanwhile must not outlast the lock that protects the owner.
      if (user && this.credentials.isLocked(user.id)) return null;
      return hit && user ? { kind: "user", user, tokenId: hit.id, integrationId: hit.integrationId } : null;
    }
    try {
      const claims = await verifySessionJwt(this.secret, token, { now: this.clock.now() });
      if (!this.sessions.isActive(claims.sid, claims.sub)) return null;
      const user = this.larder.users.byId(claims.sub);
      return user ? { kind: "user", user, sessionId: claims.sid } : null;
    } catch {
      return null;
    }
  }

  listTokens(userId: string): { id: number; name: string; createdAt: string | null }[] {
    return this.tokens.list(userId).map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt }));
  }

  createApiToken(userId: string, name: string, integrationId: string) {
    return this.tokens.create(userId, name, integrationId);
  }

  async deleteApiToken(userId: string, id: number): Promise<string> {
    return (await this.tokens.delete(userId, id)).name;
  }

  /** A single-use password reset token (stored hashed, expires in an hour). */
  async createResetToken(userId: string): Promise<string> {
    const user = this.larder.users.get(userId);
    if (user.authMethod !== "Mealie") throw new BadRequestError("This user signs in through LDAP or OIDC");
    return this.resetTokens.create(userId, RESET_TOKEN_SECONDS);
  }

  /**
   * Spend a reset token: new password, lock cleared, and every session and other reset link of the
   * user ended (whoever asked for the reset may be locking out someone who stole the account).
   */
  async resetPassword(token: string, password: string): Promise<void> {
    const userId = await this.resetTokens.consume(token);
    const user = userId ? this.larder.users.byId(userId) : null;
    if (!userId || !user || user.authMethod !== "Mealie") throw new BadRequestError("Invalid token");
    await this.credentials.setPassword(userId, password);
    await this.credentials.unlock(userId);
    await this.sessions.revokeAllForUser(userId);
    await this.resetTokens.revokeAllForUser(userId);
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
