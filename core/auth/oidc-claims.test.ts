import { beforeAll, describe, expect, it } from "vitest";
import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWTVerifyGetKey,
} from "jose";
import {
  identityFromClaims,
  oidcSettings,
  verifyIdToken,
  OidcError,
  type OidcSettings,
} from "./oidc-claims.js";

const ISSUER = "https://idp.example";
const CLIENT = "larder";
const NONCE = "nonce-of-this-sign-in";

let signing: CryptoKey;
let keys: JWTVerifyGetKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signing = pair.privateKey;
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256" }] });
});

function token(
  claims: Record<string, unknown> = {},
  opts: { key?: CryptoKey; exp?: string | number; kid?: string } = {},
) {
  return new SignJWT({ nonce: NONCE, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "k1" })
    .setIssuer(String(claims.iss ?? ISSUER))
    .setAudience((claims.aud as string | string[] | undefined) ?? CLIENT)
    .setSubject("user-1")
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? "5m")
    .sign(opts.key ?? signing);
}

const check = { issuer: ISSUER, clientId: CLIENT, nonce: NONCE, algorithms: ["RS256"] };

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof OidcError) return e.logDetail;
    throw e;
  }
  throw new Error("was accepted");
}

describe("verifyIdToken", () => {
  it("accepts a token signed by the IdP for this client and this sign-in", async () => {
    const payload = await verifyIdToken(await token({ email: "a@x.test" }), keys, check);
    expect(payload).toMatchObject({ sub: "user-1", email: "a@x.test" });
  });

  it("refuses another sign-in's nonce, another audience or issuer, and an expired token", async () => {
    expect(await refusal(verifyIdToken(await token({ nonce: "someone-else" }), keys, check))).toMatch(
      /nonce/,
    );
    expect(await refusal(verifyIdToken(await token({ nonce: undefined }), keys, check))).toMatch(/nonce/);
    expect(await refusal(verifyIdToken(await token({ aud: "other-app" }), keys, check))).toMatch(/'aud'/);
    expect(await refusal(verifyIdToken(await token({ iss: "https://evil.example" }), keys, check))).toMatch(
      /'iss'/,
    );
    const old = Math.floor(Date.now() / 1000) - 3600;
    expect(await refusal(verifyIdToken(await token({}, { exp: old }), keys, check))).toMatch(/expired/);
  });

  it("refuses a forged signature, an unknown key and a disallowed algorithm", async () => {
    const other = (await generateKeyPair("RS256")).privateKey;
    expect(await refusal(verifyIdToken(await token({}, { key: other }), keys, check))).toMatch(/signature/);
    expect(await refusal(verifyIdToken(await token({}, { kid: "k2" }), keys, check))).toMatch(/JWKS/);
    expect(await refusal(verifyIdToken(await token(), keys, { ...check, algorithms: ["ES256"] }))).toMatch(
      /alg/i,
    );
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(
      JSON.stringify({ iss: ISSUER, aud: CLIENT, sub: "x", nonce: NONCE, iat: 1, exp: 9999999999 }),
    ).toString("base64url")}.`;
    await expect(verifyIdToken(unsigned, keys, check)).rejects.toBeInstanceOf(OidcError);
  });

  it("requires azp to name this client when the token has several audiences", async () => {
    expect(await refusal(verifyIdToken(await token({ aud: [CLIENT, "other"] }), keys, check))).toMatch(/azp/);
    await expect(
      verifyIdToken(await token({ aud: [CLIENT, "other"], azp: CLIENT }), keys, check),
    ).resolves.toBeTruthy();
  });
});

const settings = (oidc: Record<string, string>): OidcSettings => {
  const s = oidcSettings({
    baseUrl: "https://larder.example/",
    oidc: {
      AUTH_ENABLED: "true",
      CONFIGURATION_URL: `${ISSUER}/.well-known/openid-configuration`,
      CLIENT_ID: CLIENT,
      ...oidc,
    },
  });
  if (!s) throw new Error("not enabled");
  return s;
};

describe("oidcSettings", () => {
  it("is on with a configuration URL and client id, with Mealie's defaults", () => {
    expect(oidcSettings({ baseUrl: "x", oidc: { AUTH_ENABLED: "true", CLIENT_ID: "c" } })).toBeNull();
    expect(settings({})).toMatchObject({
      clientSecret: null,
      userClaim: "email",
      groupsClaim: "groups",
      signupEnabled: true,
      rememberMe: false,
      autoRedirect: false,
      providerName: "OAuth",
      scope: "openid email profile",
      redirectUri: "https://larder.example/api/auth/oauth/callback",
    });
    expect(settings({ USER_GROUP: "cooks", SIGNUP_ENABLED: "false" })).toMatchObject({
      scope: "openid email profile groups",
      signupEnabled: false,
    });
  });
});

describe("identityFromClaims", () => {
  const claims = { email: "ann@x.test", name: "Ann", preferred_username: "ann", groups: ["cooks"] };

  it("needs the user claim and the e-mail", () => {
    expect(() =>
      identityFromClaims(settings({ USER_CLAIM: "preferred_username" }), { email: "a@x.test" }),
    ).toThrow("The identity provider did not send the 'preferred_username' claim");
    expect(() => identityFromClaims(settings({}), { name: "Ann" })).toThrow(/'email'/);
  });

  it("applies Mealie's group rules", () => {
    const gated = settings({ USER_GROUP: "cooks", ADMIN_GROUP: "chefs" });
    expect(identityFromClaims(gated, claims)).toMatchObject({
      username: "ann",
      fullName: "Ann",
      admin: false,
    });
    expect(identityFromClaims(gated, { ...claims, groups: ["chefs"] }).admin).toBe(true);
    expect(() => identityFromClaims(gated, { ...claims, groups: ["guests"] })).toThrow(
      /not in a group allowed/,
    );
    expect(() => identityFromClaims(gated, { email: "a@x.test" })).toThrow(/'groups'/);
    // Only an admin group configured: everyone may sign in; admin follows the group.
    const adminOnly = settings({ ADMIN_GROUP: "chefs" });
    expect(identityFromClaims(adminOnly, { ...claims, groups: [] }).admin).toBe(false);
    // No group configured: admin is left alone.
    expect(identityFromClaims(settings({}), claims).admin).toBeNull();
  });

  it("derives a whitespace-free username and reads email_verified", () => {
    const id = identityFromClaims(settings({}), {
      email: "b@x.test",
      preferred_username: "Bea Smith",
      email_verified: "false",
    });
    expect(id).toMatchObject({
      username: "Bea-Smith",
      fullName: "Bea Smith",
      claimValue: "b@x.test",
      emailVerified: false,
    });
    expect(identityFromClaims(settings({}), { email: "b@x.test" }).emailVerified).toBe(true);
  });
});
