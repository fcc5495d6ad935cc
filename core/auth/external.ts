/**
 * Sign-in through someone else's directory (LDAP) or identity provider (OIDC), decision 0010.
 * ldap.ts and oidc.ts say who a person is; this module decides which Larder account that is,
 * creates it on first sign-in (in the default group and household) and keeps its admin flag in
 * step with LDAP_ADMIN_FILTER / OIDC_ADMIN_GROUP. AuthService then issues the session.
 */
import { ZodError } from "zod";
import type { Parts } from "../parts.js";
import type { UserRecord } from "../schemas/records.js";
import { NotFoundError, UnauthorizedError } from "../errors.js";
import { NewUserInput } from "../users/users-service.js";
import { createGuardedFetcher } from "../net/index.js";
import { ldapAuthenticate, ldapSettings, type LdapSettings } from "./ldap.js";
import {
  API_CALLBACK_PATH,
  identityFromClaims,
  oidcSettings,
  OidcError,
  type OidcSettings,
} from "./oidc-claims.js";
import { OidcClient, type CallbackParams } from "./oidc.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "groups" | "log" | "site" | "users">;

/** Whether the user signs in elsewhere: no local password, no password change or reset link. */
export function isExternalAuth(user: Pick<UserRecord, "authMethod">): boolean {
  return user.authMethod !== "Mealie";
}

interface ExternalProfile {
  authMethod: "LDAP" | "OIDC";
  username: string;
  email: string | null;
  fullName: string;
  /** null: no admin rule configured, leave the flag as it is. */
  admin: boolean | null;
}

const NewExternalUser = NewUserInput.omit({ password: true });

/** The directory could not answer (down, or misconfigured): no verdict on the password. */
export class DirectoryUnavailableError extends UnauthorizedError {
  constructor() {
    super("The LDAP server is unavailable; try again later or ask your administrator");
    this.name = "DirectoryUnavailableError";
  }
}

/** The directory knows the person and their password, but LDAP_USER_FILTER leaves them out. */
export class NotAllowedToSignInError extends UnauthorizedError {
  constructor() {
    super("Your directory account is not in a group allowed to sign in to Larder");
    this.name = "NotAllowedToSignInError";
  }
}

export class ExternalSignIn {
  private oidcClient: OidcClient | null = null;

  constructor(private readonly larder: Deps) {}

  /** Read on every use rather than once, so settings are never stale (tests also set BASE_URL late). */
  get ldap(): LdapSettings | null {
    return ldapSettings(this.larder.config);
  }

  get oidc(): OidcSettings | null {
    return oidcSettings(this.larder.config);
  }

  /**
   * The LDAP step of POST /auth/token, for people unknown here or whose account is an LDAP one.
   * Returns the signed-in user, or null to let an unknown login fall through to local credentials.
   * An LDAP account never falls through: its password lives in the directory only.
   */
  async ldapLogin(login: string, password: string, known: UserRecord | null): Promise<UserRecord | null> {
    if (known && known.authMethod !== "LDAP") return null;
    let s: LdapSettings | null = null;
    let outcome;
    try {
      s = this.ldap;
      if (!s) return null;
      outcome = await ldapAuthenticate(s, login, password);
    } catch (e) {
      // A settings mistake (a bad attribute name) leaves LDAP as unusable as a server that is down.
      const why = e instanceof Error ? e.message : String(e);
      const where = s ? ` (LDAP_SERVER_URL ${s.serverUrl})` : "";
      this.larder.log.error(`LDAP sign-in of '${login}' failed: ${why}${where}`);
      throw new DirectoryUnavailableError();
    }
    if (outcome.kind === "not-allowed") {
      this.larder.log.warn(`LDAP sign-in of '${login}' refused: the entry does not match LDAP_USER_FILTER`);
      throw new NotAllowedToSignInError();
    }
    if (outcome.kind === "invalid") {
      if (known) throw new UnauthorizedError("Unauthorized");
      return null;
    }
    const p = outcome.person;
    // Usually `known`; but someone who typed their e-mail the first time and their uid now must
    // still find the account their first sign-in created.
    const existing =
      known ??
      this.larder.users
        .all()
        .find((u) => u.authMethod === "LDAP" && u.username.toLowerCase() === p.username.toLowerCase()) ??
      null;
    return this.provision(
      existing,
      { authMethod: "LDAP", username: p.username, email: p.email, fullName: p.fullName, admin: p.admin },
      true,
    );
  }

  private client(): OidcClient {
    this.oidcClient ??= new OidcClient(createGuardedFetcher(this.larder.config), this.larder.log);
    return this.oidcClient;
  }

  private requireOidc(): OidcSettings {
    const s = this.oidc;
    if (!s) throw new NotFoundError("OIDC sign-in is not enabled on this server");
    return s;
  }

  /** GET /auth/oauth: where to send the browser, and the binding cookie's value. */
  async oidcBegin(binding: string | null): Promise<{ url: string; binding: string; maxAge: number }> {
    const s = this.requireOidc();
    try {
      return { ...(await this.client().begin(s, binding)), maxAge: OidcClient.cookieSeconds };
    } catch (e) {
      throw this.logged(e);
    }
  }

  /**
   * GET /auth/oauth/callback: the signed-in user, and whether the browser came straight from the
   * IdP to the API (`redirect`: land it on `/`) or a frontend relays the code (`json`).
   */
  async oidcComplete(
    params: CallbackParams,
    binding: string | null,
  ): Promise<{ user: UserRecord; rememberMe: boolean; landing: "redirect" | "json" }> {
    const s = this.requireOidc();
    try {
      const { claims, redirectUri } = await this.client().complete(s, params, binding);
      const id = identityFromClaims(s, claims);
      // Username first, then e-mail, both by the configured claim's value (as Mealie looks up).
      const l = id.claimValue.toLowerCase();
      const byName = this.larder.users.all().find((u) => u.username.toLowerCase() === l) ?? null;
      const byEmail = byName ? null : this.larder.users.byEmail(id.claimValue);
      if (byEmail && !id.emailVerified) {
        // Matching an existing account by an address the IdP has not checked would let anyone who
        // can type that address at the IdP take the account over.
        throw new OidcError(
          "Your identity provider has not verified this e-mail address",
          `email_verified is false for ${id.claimValue}`,
        );
      }
      const user = await this.provision(
        byName ?? byEmail,
        {
          authMethod: "OIDC",
          username: id.username,
          email: id.email,
          fullName: id.fullName,
          admin: id.admin,
        },
        s.signupEnabled,
      );
      const landing = new URL(redirectUri).pathname === API_CALLBACK_PATH ? "redirect" : "json";
      return { user, rememberMe: s.rememberMe, landing };
    } catch (e) {
      throw this.logged(e);
    }
  }

  private logged(e: unknown): unknown {
    if (e instanceof OidcError) this.larder.log.warn(`OIDC sign-in refused: ${e.logDetail}`);
    return e;
  }

  /** The local account for an external identity: admin re-synced, or created on first sign-in. */
  private async provision(
    existing: UserRecord | null,
    p: ExternalProfile,
    signup: boolean,
  ): Promise<UserRecord> {
    const users = this.larder.users;
    if (existing) {
      return p.admin !== null && existing.admin !== p.admin
        ? users.update(existing.id, { admin: p.admin })
        : existing;
    }
    const via = p.authMethod === "LDAP" ? "directory" : "identity provider";
    if (!signup)
      throw new OidcError(
        "No Larder account exists for you and sign-up through the identity provider is disabled",
        `no account for ${p.username} and OIDC_SIGNUP_ENABLED is false`,
      );
    if (!p.email)
      throw new UnauthorizedError(`Your ${via} account has no e-mail address, which Larder needs`);
    // Never take over a local account that happens to share a name or address: an admin links them.
    if (users.usernameTaken(p.username) || users.emailTaken(p.email)) {
      this.larder.log.warn(
        `${p.authMethod} sign-in of '${p.username}' <${p.email}>: a local account already uses that username or e-mail`,
      );
      throw new UnauthorizedError(
        `A Larder account with your username or e-mail already exists; ask an administrator to link it`,
      );
    }
    const groups = this.larder.groups;
    const group = groups.bySlugOrNull(this.larder.site.data.defaultGroup) ?? groups.all()[0] ?? null;
    const household = group ? groups.defaultHousehold(group) : null;
    if (!group || !household)
      throw new UnauthorizedError("Larder has no default group to add new accounts to");
    let profile;
    try {
      profile = NewExternalUser.parse({
        username: p.username,
        email: p.email,
        fullName: p.fullName,
        admin: p.admin ?? false,
      });
    } catch (e) {
      const why =
        e instanceof ZodError
          ? e.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
          : String(e);
      throw new UnauthorizedError(`Your ${via} account cannot be used for Larder (${why})`);
    }
    const user = await users.create(
      profile,
      { groupId: group.doc.data.id, householdId: household.doc.data.id },
      { authMethod: p.authMethod },
    );
    this.larder.log.info(
      `${p.authMethod} sign-in: created account '${user.username}' in group '${group.doc.data.name}'${user.admin ? " (admin)" : ""}`,
    );
    return user;
  }
}
