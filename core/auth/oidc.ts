/**
 * OIDC sign-in, the network half (decision 0010): discovery, the authorization-code flow with PKCE
 * S256, state and nonce, token exchange, JWKS and userinfo. Every request goes through the guarded
 * fetcher (decision 0005), so an IdP on a private address must be listed in LARDER_FETCH_ALLOW.
 *
 * A started sign-in lives here, in memory, keyed by its `state`, for ten minutes, and is used once.
 * It is also tied to the browser that started it by a random "binding" kept in a short-lived
 * httpOnly cookie: without it, someone could start a sign-in with their own IdP account and send a
 * victim the callback link, signing the victim in as the attacker (login CSRF).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { createLocalJWKSet, type JWTVerifyGetKey } from "jose";
import { z } from "zod";
import type { Logger } from "../log/logger.js";
import { BlockedTargetError, type GuardedFetcher, type RequestOptions } from "../net/index.js";
import { NO_MATCHING_KEY, OidcError, verifyIdToken, type OidcSettings } from "./oidc-claims.js";

const FLOW_SECONDS = 600;
const MAX_PENDING = 1000;
const DISCOVERY_TTL_MS = 3600_000;
const BINDING = /^[A-Za-z0-9_-]{43}$/;

const Discovery = z.object({
  issuer: z.string().min(1),
  // The browser is sent to the authorization endpoint: nothing but http(s) may get there.
  authorization_endpoint: z.url({ protocol: /^https?$/ }),
  token_endpoint: z.url({ protocol: /^https?$/ }),
  jwks_uri: z.url({ protocol: /^https?$/ }),
  userinfo_endpoint: z.url({ protocol: /^https?$/ }).optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof Discovery>;

const TokenResponse = z.object({ id_token: z.string().min(1), access_token: z.string().optional() });
const JwkSet = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

interface PendingFlow {
  verifier: string;
  nonce: string;
  bindingHash: Buffer;
  redirectUri: string;
  expires: number;
}

export interface CallbackParams {
  code: string | null;
  state: string | null;
  iss: string | null;
  error: string | null;
  errorDescription: string | null;
}

const random = () => randomBytes(32).toString("base64url");
const sha256 = (s: string) => createHash("sha256").update(s).digest();
// RFC 6749 §2.3.1: client id and secret are form-encoded before they go into Basic auth.
const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

const unreachable = (what: string, detail: string) =>
  new OidcError(
    "The identity provider could not be reached; try again later or ask your administrator",
    `${what}: ${detail}`,
  );

export class OidcClient {
  /** Lifetime of the binding cookie: as long as a started sign-in stays valid. */
  static readonly cookieSeconds = FLOW_SECONDS;
  private discovery: { url: string; doc: Discovery; at: number } | null = null;
  private keys: { uri: string; get: JWTVerifyGetKey; at: number } | null = null;
  private flows = new Map<string, PendingFlow>();

  constructor(
    private readonly fetcher: GuardedFetcher,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The IdP's authorization URL for a new sign-in, and the browser binding to keep in a cookie.
   * A binding the browser already holds is reused, so two tabs signing in at once both work.
   */
  async begin(s: OidcSettings, binding: string | null): Promise<{ url: string; binding: string }> {
    const doc = await this.discover(s);
    this.prune();
    const keep = binding && BINDING.test(binding) ? binding : random();
    const state = random();
    const flow: PendingFlow = {
      verifier: random(),
      nonce: random(),
      bindingHash: sha256(keep),
      redirectUri: s.redirectUri,
      expires: this.now() + FLOW_SECONDS * 1000,
    };
    this.flows.set(state, flow);
    const url = new URL(doc.authorization_endpoint);
    const q = url.searchParams;
    q.set("response_type", "code");
    q.set("client_id", s.clientId);
    q.set("redirect_uri", flow.redirectUri);
    q.set("scope", s.scope);
    q.set("state", state);
    q.set("nonce", flow.nonce);
    q.set("code_challenge", createHash("sha256").update(flow.verifier).digest("base64url"));
    q.set("code_challenge_method", "S256");
    return { url: url.toString(), binding: keep };
  }

  /**
   * Finish a sign-in: check state and binding (once), exchange the code, verify the ID token and
   * merge userinfo. Returns the verified claims and the redirect URI this sign-in used.
   */
  async complete(
    s: OidcSettings,
    p: CallbackParams,
    binding: string | null,
  ): Promise<{ claims: Record<string, unknown>; redirectUri: string }> {
    const flow = p.state ? this.flows.get(p.state) : undefined;
    // Spent on first sight, whatever happens next: a code and state are never good twice.
    if (p.state) this.flows.delete(p.state);
    if (p.error) {
      const said = (p.errorDescription ?? p.error).slice(0, 200);
      throw new OidcError(
        `The identity provider refused the sign-in: ${said}`,
        `authorization error ${p.error}: ${p.errorDescription ?? ""}`,
      );
    }
    if (!flow || flow.expires < this.now()) {
      throw new OidcError(
        "This sign-in link is unknown or has expired; please sign in again",
        "unknown, used or expired state",
      );
    }
    const presented = binding && BINDING.test(binding) ? sha256(binding) : null;
    if (!presented || !timingSafeEqual(presented, flow.bindingHash)) {
      throw new OidcError(
        "This sign-in was started in another browser; please sign in again",
        "state does not belong to this browser (binding cookie missing or different)",
      );
    }
    if (!p.code)
      throw new OidcError("The identity provider sent no authorization code", "callback without code");
    const doc = await this.discover(s);
    // RFC 9207: when the IdP names itself in the response, it must be the one we sent the user to.
    if (p.iss !== null && p.iss !== doc.issuer) {
      throw new OidcError(
        "The sign-in response came from another identity provider",
        `iss ${p.iss} is not ${doc.issuer}`,
      );
    }
    const tokens = await this.exchange(s, doc, p.code, flow);
    const secret = s.clientSecret;
    const algorithms = (doc.id_token_signing_alg_values_supported ?? ["RS256"]).filter(
      (a) => a !== "none" && (!a.startsWith("HS") || secret !== null),
    );
    const idClaims = await this.verifyWithKeys(
      doc,
      tokens.id_token,
      { issuer: doc.issuer, clientId: s.clientId, nonce: flow.nonce, algorithms },
      secret,
    );
    const info = tokens.access_token
      ? await this.userinfo(doc, tokens.access_token, String(idClaims.sub))
      : {};
    // Signed ID token claims win; userinfo fills in what the IdP keeps out of the token (often groups).
    return { claims: { ...info, ...idClaims }, redirectUri: flow.redirectUri };
  }

  private prune(): void {
    const t = this.now();
    for (const [state, f] of this.flows) if (f.expires < t) this.flows.delete(state);
    // Starting a sign-in needs no account, so the table is capped; the oldest go first.
    while (this.flows.size >= MAX_PENDING) {
      const oldest = this.flows.keys().next().value;
      if (oldest === undefined) break;
      this.flows.delete(oldest);
    }
  }

  private async request(
    what: string,
    url: string,
    opts: Pick<RequestOptions, "method" | "headers" | "body"> = {},
  ): Promise<{ status: number; body: unknown }> {
    let res;
    try {
      res = await this.fetcher(url, {
        connectTimeoutMs: 5000,
        timeoutMs: 10_000,
        maxBytes: 1024 * 1024,
        ...opts,
        stream: false,
        throwHttpErrors: false,
      });
    } catch (e) {
      if (e instanceof BlockedTargetError) {
        throw unreachable(
          what,
          `${url} is on a private or reserved address; add its host to LARDER_FETCH_ALLOW`,
        );
      }
      throw unreachable(what, e instanceof Error ? e.message : String(e));
    }
    let body: unknown = null;
    try {
      body = JSON.parse(res.body.toString("utf8"));
    } catch {
      body = null;
    }
    return { status: res.status, body };
  }

  private async discover(s: OidcSettings): Promise<Discovery> {
    const cached = this.discovery;
    if (cached && cached.url === s.configurationUrl && this.now() - cached.at < DISCOVERY_TTL_MS)
      return cached.doc;
    const { status, body } = await this.request("discovery", s.configurationUrl, {
      headers: { accept: "application/json" },
    });
    const parsed = Discovery.safeParse(body);
    if (status !== 200 || !parsed.success)
      throw unreachable(
        "discovery",
        `${s.configurationUrl} answered ${status} without a usable OpenID configuration`,
      );
    const expected = s.configurationUrl.replace(/\/\.well-known\/openid-configuration\/?$/, "");
    if (parsed.data.issuer.replace(/\/+$/, "") !== expected.replace(/\/+$/, "")) {
      this.log.warn(
        `OIDC: issuer ${parsed.data.issuer} differs from OIDC_CONFIGURATION_URL ${s.configurationUrl}`,
      );
    }
    this.discovery = { url: s.configurationUrl, doc: parsed.data, at: this.now() };
    return parsed.data;
  }

  private async exchange(
    s: OidcSettings,
    doc: Discovery,
    code: string,
    flow: PendingFlow,
  ): Promise<z.infer<typeof TokenResponse>> {
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
    });
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    const methods = doc.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    if (s.clientSecret === null) {
      form.set("client_id", s.clientId);
    } else if (methods.includes("client_secret_basic") || !methods.includes("client_secret_post")) {
      headers.authorization = `Basic ${Buffer.from(`${formEncode(s.clientId)}:${formEncode(s.clientSecret)}`).toString("base64")}`;
    } else {
      form.set("client_id", s.clientId);
      form.set("client_secret", s.clientSecret);
    }
    const { status, body } = await this.request("token exchange", doc.token_endpoint, {
      method: "POST",
      headers,
      body: form.toString(),
    });
    const parsed = TokenResponse.safeParse(body);
    if (status === 200 && parsed.success) return parsed.data;
    const err = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(body);
    const why = err.success
      ? `${err.data.error}${err.data.error_description ? ` (${err.data.error_description})` : ""}`
      : `status ${status}`;
    throw new OidcError("The identity provider did not accept the sign-in code", `token endpoint: ${why}`);
  }

  private async jwks(doc: Discovery, fresh: boolean): Promise<JWTVerifyGetKey> {
    const cached = this.keys;
    if (!fresh && cached && cached.uri === doc.jwks_uri && this.now() - cached.at < DISCOVERY_TTL_MS)
      return cached.get;
    const { status, body } = await this.request("JWKS", doc.jwks_uri, {
      headers: { accept: "application/json" },
    });
    const parsed = JwkSet.safeParse(body);
    if (status !== 200 || !parsed.success)
      throw unreachable("JWKS", `${doc.jwks_uri} answered ${status} without a key set`);
    const local = createLocalJWKSet(parsed.data);
    const get: JWTVerifyGetKey = (header, token) => local(header, token);
    this.keys = { uri: doc.jwks_uri, get, at: this.now() };
    return get;
  }

  private async verifyWithKeys(
    doc: Discovery,
    token: string,
    check: Parameters<typeof verifyIdToken>[2],
    secret: string | null,
  ): Promise<Record<string, unknown>> {
    const withKeys =
      (jwks: JWTVerifyGetKey): JWTVerifyGetKey =>
      (header, t) =>
        // HS* ID tokens are signed with the client secret (OIDC Core §10.1); the allowed list has
        // them only when there is a secret.
        header.alg?.startsWith("HS") && secret !== null ? new TextEncoder().encode(secret) : jwks(header, t);
    try {
      return await verifyIdToken(token, withKeys(await this.jwks(doc, false)), check);
    } catch (e) {
      // The IdP may have rotated its keys since we cached them: fetch once more, then give up.
      if (!(e instanceof OidcError) || !e.logDetail.endsWith(NO_MATCHING_KEY)) throw e;
      return verifyIdToken(token, withKeys(await this.jwks(doc, true)), check);
    }
  }

  private async userinfo(doc: Discovery, accessToken: string, sub: string): Promise<Record<string, unknown>> {
    if (!doc.userinfo_endpoint) return {};
    const { status, body } = await this.request("userinfo", doc.userinfo_endpoint, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
    });
    if (status !== 200 || !body || typeof body !== "object" || Array.isArray(body)) {
      this.log.warn(`OIDC: userinfo answered ${status}; using the ID token's claims only`);
      return {};
    }
    const info = body as Record<string, unknown>;
    // OIDC Core §5.3.2: a userinfo answer about someone else must not be used.
    if (info.sub !== sub)
      throw new OidcError(
        "The identity provider's answers do not match",
        `userinfo sub ${String(info.sub)} is not ${sub}`,
      );
    return info;
  }
}
