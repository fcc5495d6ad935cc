/**
 * Session JWTs (mealie-api-notes §2, ARCHITECTURE §5): HS256 with the folder's secret
 * (core/storage/secrets.ts), claims `{sub, sid, exp, iss: "mealie"}`. Mealie's shape plus `sid`, the
 * server-side session the token belongs to, so logout and password changes really end it.
 */
import { SignJWT, errors, jwtVerify } from "jose";
import { UnauthorizedError } from "../errors.js";

export const SESSION_ISSUER = "mealie";
const ALG = "HS256";

export interface SessionClaims {
  /** User id. */
  sub: string;
  /** Session id, checked against `.larder/sessions.json`. */
  sid: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  iss: typeof SESSION_ISSUER;
}

/** A bearer token that is forged, expired, malformed or signed with another algorithm. */
export class InvalidTokenError extends UnauthorizedError {
  constructor(readonly reason: "expired" | "invalid") {
    super();
  }
}

/** Sign a session token. `exp` is in seconds since the epoch (JWT NumericDate). */
export async function signSessionJwt(
  secret: Uint8Array,
  claims: { userId: string; sessionId: string; exp: number },
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALG, typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(SESSION_ISSUER)
    .setExpirationTime(claims.exp)
    .sign(secret);
}

/** Verify a session token and return its claims; throws InvalidTokenError (401) otherwise. */
export async function verifySessionJwt(
  secret: Uint8Array,
  token: string,
  options: { now?: Date } = {},
): Promise<SessionClaims> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      // Pinning the algorithm refuses "none" and any algorithm-confusion attempt.
      algorithms: [ALG],
      issuer: SESSION_ISSUER,
      requiredClaims: ["sub", "sid", "exp"],
      currentDate: options.now,
    }));
  } catch (e) {
    throw new InvalidTokenError(e instanceof errors.JWTExpired ? "expired" : "invalid");
  }
  const { sub, sid, exp } = payload;
  if (typeof sub !== "string" || typeof sid !== "string" || typeof exp !== "number")
    throw new InvalidTokenError("invalid");
  return { sub, sid, exp, iss: SESSION_ISSUER };
}
