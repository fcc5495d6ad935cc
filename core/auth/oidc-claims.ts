/**
 * The pure half of OIDC sign-in (mealie-api-notes §2 "OIDC"; decision 0010): settings from OIDC_*,
 * ID token verification, and turning verified claims into a Larder identity with Mealie's group
 * rules. No network here, so every refusal can be tested with tokens signed in the test.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import type { Config } from "../config.js";
import { UnauthorizedError } from "../errors.js";

export interface OidcSettings {
  configurationUrl: string;
  clientId: string;
  /** Null for a public client, which proves itself with PKCE alone. */
  clientSecret: string | null;
  userClaim: string;
  groupsClaim: string;
  userGroup: string | null;
  adminGroup: string | null;
  signupEnabled: boolean;
  rememberMe: boolean;
  autoRedirect: boolean;
  providerName: string;
  scope: string;
  /** Where the IdP sends the browser back to; see decision 0010 for the two choices. */
  redirectUri: string;
}

/** The path of Larder's own redirect target: it finishes the sign-in and lands the browser on `/`. */
export const API_CALLBACK_PATH = "/api/auth/oauth/callback";

const TRUE = /^(1|true|yes|on)$/i;
const FALSE = /^(0|false|no|off)$/i;

/** OIDC_* settings, or null when OIDC is off or incomplete (app info then says enableOidc: false). */
export function oidcSettings(config: Pick<Config, "oidc" | "baseUrl">): OidcSettings | null {
  const e = config.oidc;
  const get = (k: string) => (e[k] ?? "").trim() || null;
  const flag = (k: string, d: boolean) => (d ? !FALSE.test(e[k] ?? "") : TRUE.test(e[k] ?? ""));
  if (!flag("AUTH_ENABLED", false)) return null;
  const configurationUrl = get("CONFIGURATION_URL");
  const clientId = get("CLIENT_ID");
  const userClaim = get("USER_CLAIM") ?? "email";
  if (!configurationUrl || !clientId) return null;
  const groupsClaim = get("GROUPS_CLAIM") ?? "groups";
  const userGroup = get("USER_GROUP");
  const adminGroup = get("ADMIN_GROUP");
  const gated = userGroup !== null || adminGroup !== null;
  return {
    configurationUrl,
    clientId,
    clientSecret: get("CLIENT_SECRET"),
    userClaim,
    groupsClaim,
    userGroup,
    adminGroup,
    signupEnabled: flag("SIGNUP_ENABLED", true),
    rememberMe: flag("REMEMBER_ME", false),
    autoRedirect: flag("AUTO_REDIRECT", false),
    providerName: get("PROVIDER_NAME") ?? "OAuth",
    scope: get("SCOPES_OVERRIDE") ?? `openid email profile${gated ? ` ${groupsClaim}` : ""}`,
    redirectUri: get("REDIRECT_URI") ?? `${config.baseUrl.replace(/\/+$/, "")}${API_CALLBACK_PATH}`,
  };
}

/** A refused OIDC sign-in: `message` is the 401's detail, `logDetail` what the admin's log gets. */
export class OidcError extends UnauthorizedError {
  constructor(
    message: string,
    readonly logDetail: string = message,
  ) {
    super(message);
  }
}

/** The end of an OidcError's log detail when no key of the IdP's set fits (they may have rotated). */
export const NO_MATCHING_KEY = "no key of the IdP's JWKS matches";

export interface IdTokenCheck {
  issuer: string;
  clientId: string;
  nonce: string;
  algorithms: string[];
  now?: Date;
}

/**
 * Verify an ID token (OIDC Core §3.1.3.7): signature by the IdP's keys, issuer, audience, expiry,
 * the nonce this sign-in sent, and `azp` when there are several audiences.
 */
export async function verifyIdToken(
  token: string,
  keys: JWTVerifyGetKey,
  check: IdTokenCheck,
): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      issuer: check.issuer,
      audience: check.clientId,
      algorithms: check.algorithms,
      requiredClaims: ["sub", "exp", "iat"],
      // Clocks of a self-hosted IdP and of Larder drift; a minute is what most clients allow.
      clockTolerance: 60,
      ...(check.now ? { currentDate: check.now } : {}),
    }));
  } catch (e) {
    const reason =
      e instanceof joseErrors.JWKSNoMatchingKey
        ? NO_MATCHING_KEY
        : e instanceof joseErrors.JWTExpired
          ? "it has expired"
          : e instanceof joseErrors.JWTClaimValidationFailed
            ? `its '${e.claim}' claim is wrong`
            : e instanceof joseErrors.JWSSignatureVerificationFailed
              ? "its signature is invalid"
              : e instanceof Error
                ? e.message
                : String(e);
    throw new OidcError("The identity provider's ID token was rejected", `ID token rejected: ${reason}`);
  }
  if (payload.nonce !== check.nonce) {
    throw new OidcError(
      "The identity provider's ID token was rejected",
      "ID token rejected: nonce does not match this sign-in",
    );
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== check.clientId) {
    throw new OidcError(
      "The identity provider's ID token was rejected",
      "ID token rejected: several audiences and 'azp' is not this client",
    );
  }
  return payload;
}

export interface OidcIdentity {
  /** The OIDC_USER_CLAIM value accounts are looked up by (username first, then e-mail). */
  claimValue: string;
  username: string;
  email: string;
  fullName: string;
  /** Whether the IdP vouches for the e-mail; false only when it says so (`email_verified: false`). */
  emailVerified: boolean;
  /** From OIDC_ADMIN_GROUP, or null when no admin group is configured (admin is then left alone). */
  admin: boolean | null;
}

function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number") return String(v);
  return null;
}

function groupsOf(v: unknown): string[] | null {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.filter((g): g is string => typeof g === "string");
  return null;
}

/**
 * Verified claims → identity, with Mealie's rules: the user claim and e-mail are required; when a
 * user or admin group is configured, the groups claim is required and the person must be in one of
 * them (only an admin group configured: everyone may sign in, members of it as admins).
 */
export function identityFromClaims(s: OidcSettings, claims: Record<string, unknown>): OidcIdentity {
  const missing = (name: string) =>
    new OidcError(
      `The identity provider did not send the '${name}' claim`,
      `claim '${name}' missing (claims: ${Object.keys(claims).join(", ")})`,
    );
  const claimValue = text(claims[s.userClaim]);
  if (!claimValue) throw missing(s.userClaim);
  const email = text(claims.email);
  if (!email) throw missing("email");
  let admin: boolean | null = null;
  if (s.userGroup !== null || s.adminGroup !== null) {
    const groups = groupsOf(claims[s.groupsClaim]);
    if (!groups) throw missing(s.groupsClaim);
    const isUser = s.userGroup === null || groups.includes(s.userGroup);
    const isAdmin = s.adminGroup !== null && groups.includes(s.adminGroup);
    if (!isUser && !isAdmin) {
      throw new OidcError(
        "Your account is not in a group allowed to sign in to Larder",
        `'${claimValue}' is in none of OIDC_USER_GROUP / OIDC_ADMIN_GROUP (groups: ${groups.join(", ") || "none"})`,
      );
    }
    if (s.adminGroup !== null) admin = isAdmin;
  }
  const preferred = text(claims.preferred_username);
  // Larder usernames have no whitespace (spec §5); an IdP display handle may.
  const username = (preferred ?? claimValue).replace(/\s+/g, "-");
  const verified = claims.email_verified;
  return {
    claimValue,
    username,
    email,
    fullName: text(claims.name) ?? preferred ?? claimValue,
    emailVerified: !(verified === false || (typeof verified === "string" && FALSE.test(verified))),
    admin,
  };
}
