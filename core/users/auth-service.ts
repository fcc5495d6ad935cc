/**
 * Sign-in and sessions (ARCHITECTURE §5, mealie-api-notes §2): form login by username or e-mail,
 * lockout, session JWTs whose session id is checked server-side (so logout and password changes really
 * end sessions), long-lived API tokens stored hashed, password reset tokens.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import { BadRequestError, LockedError, UnauthorizedError } from "../errors.js";
import { CredentialStore } from "../auth/credentials.js";
import { SessionStore } from "../auth/sessions.js";
import { ApiTokenStore, looksLikeApiToken } from "../auth/api-tokens.js";
import { signSessionJwt, verifySessionJwt } from "../auth/jwt.js";
import { loadSecrets } from "../storage/secrets.js";
import { stopPasswordWorkers } from "../auth/passwords.js";
import { FIRST_ADMIN_EMAIL } from "./first-admin.js";

const REMEMBER_ME_SECONDS = 14 * 24 * 3600;
const RESET_TOKEN_SECONDS = 3600;

export class AuthService {
  private resetTokens = new Map<string, { userId: string; exp: number }>();
  private localAdminToken: string | null = null;

  private constructor(
    private larder: Larder,
    private credentials: CredentialStore,
    private sessions: SessionStore,
    private tokens: ApiTokenStore,
    private secret: Uint8Array,
  ) {}

  static async open(larder: Larder): Promise<AuthService> {
    const { folder, config } = larder;
    const credentials = await CredentialStore.open(folder, {
      policy: { maxLoginAttempts: config.maxLoginAttempts, lockoutHours: config.lockoutHours },
      bcryptRounds: config.bcryptRounds,
    });
    const sessions = await SessionStore.open(folder);
    const tokens = await ApiTokenStore.open(folder);
    const { jwtSecret } = await loadSecrets(folder);
    return new AuthService(larder, credentials, sessions, tokens, jwtSecret);
  }

  async close(): Promise<void> {
    await stopPasswordWorkers();
  }

  /** The running server's lock token (`.larder/lock`): the local CLI acts as the first admin with it. */
  setLocalAdminToken(token: string | null): void {
    this.localAdminToken = token;
  }

  hasPassword(userId: string): boolean {
    return this.credentials.hasPassword(userId);
  }

  async setPassword(userId: string, password: string, opts: { isDefault?: boolean } = {}): Promise<void> {
    await this.credentials.setPassword(userId, password, opts);
  }

  /** Change a password and end every other session of the user. */
  async changePassword(userId: string, password: string, keepSessionId?: string): Promise<void> {
    await this.credentials.setPassword(userId, password);
    await this.sessions.revokeAllForUser(userId, keepSessionId ? { except: keepSessionId } : {});
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

  /** POST /auth/token: 401 "Unauthorized" on bad credentials, 423 while locked. */
  async login(login: string, password: string, opts: { rememberMe?: boolean } = {}): Promise<{ token: string; maxAge: number }> {
    if (!this.larder.config.allowPasswordLogin) throw new UnauthorizedError("Password login is disabled");
    const user = login.trim() ? this.larder.users.byLogin(login) : null;
    const eligible = user && user.authMethod === "Mealie" ? user.id : null;
    const outcome = await this.credentials.authenticate(eligible, password);
    if (outcome === "locked") throw new LockedError();
    if (outcome !== "ok" || !user) throw new UnauthorizedError("Unauthorized");
    return this.issue(user.id, this.sessionSeconds(opts.rememberMe ?? false));
  }

  async refresh(actor: Actor): Promise<{ token: string; maxAge: number }> {
    if (actor.kind !== "user") throw new UnauthorizedError();
    if (actor.sessionId) await this.sessions.revoke(actor.sessionId);
    return this.issue(actor.user.id, this.sessionSeconds(false));
  }

  async logout(actor: Actor): Promise<void> {
    if (actor.kind === "user" && actor.sessionId) await this.sessions.revoke(actor.sessionId);
  }

  /** A bearer (session JWT, API token or the local admin token) → the actor, or null. */
  async authenticateToken(token: string): Promise<Actor | null> {
    if (this.localAdminToken && safeEqual(token, this.localAdminToken)) {
      const admin = this.larder.users.all().find((u) => u.admin);
      return admin ? { kind: "user", user: admin, integrationId: "larder-cli" } : null;
    }
    if (looksLikeApiToken(token)) {
      const hit = this.tokens.verify(token);
      const user = hit ? this.larder.users.byId(hit.userId) : null;
      return hit && user ? { kind: "user", user, tokenId: hit.id, integrationId: hit.integrationId } : null;
    }
    try {
      const claims = await verifySessionJwt(this.secret, token);
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
    const token = randomBytes(24).toString("base64url");
    this.resetTokens.set(hash(token), { userId, exp: Date.now() + RESET_TOKEN_SECONDS * 1000 });
    return token;
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const key = hash(token);
    const entry = this.resetTokens.get(key);
    this.resetTokens.delete(key);
    if (!entry || entry.exp < Date.now()) throw new BadRequestError("Invalid token");
    await this.credentials.setPassword(entry.userId, password);
    await this.credentials.unlock(entry.userId);
    await this.sessions.revokeAllForUser(entry.userId);
  }
}

function hash(s: string): string {
  return createHash("sha256").update(s).digest("hex");
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
