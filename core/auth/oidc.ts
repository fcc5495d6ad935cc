/**
 * OIDC sign-in, the network half (decision 0010, 0027): the authorization-code flow with PKCE S256,
 * state and nonce, on openid-client (discovery, token exchange, ID token and userinfo checks). Every
 * request goes through the guarded fetcher (decision 0005) as openid-client's custom fetch, so an IdP
 * on a private address must be listed in LARDER_FETCH_ALLOW.
 *
 * A started sign-in lives here, in memory, keyed by its `state`, for ten minutes, and is used once.
 * It is also tied to the browser that started it by a random "binding" kept in a short-lived
 * httpOnly cookie: without it, someone could start a sign-in with their own IdP account and send a
 * victim the callback link, signing the victim in as the attacker (login CSRF).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import * as oidc from "openid-client";
import type { Logger } from "../log/logger.js";
import { BlockedTargetError, type GuardedFetcher } from "../net/index.js";
import { OidcError, type OidcSettings } from "./oidc-claims.js";

const FLOW_SECONDS = 600;
const MAX_PENDING = 1000;
const DISCOVERY_TTL_MS = 3600_000;
const BINDING = /^[A-Za-z0-9_-]{43}$/;
const WELL_KNOWN = /\/\.well-known\/openid-configuration\/?$/;

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

const unreachable = (what: string, detail: string) =>
  new OidcError(
    "The identity provider could not be reached; try again later or ask your administrator",
    `${what}: ${detail}`,
  );

/** An OidcError somewhere in `e`'s cause chain (openid-client wraps what the custom fetch throws). */
function ownError(e: unknown): OidcError | null {
  for (let c: unknown = e, depth = 0; c && depth < 8; c = (c as { cause?: unknown }).cause, depth++)
    if (c instanceof OidcError) return c;
  return null;
}

function describe(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    if (c instanceof Error) parts.push(c.message);
    else if (typeof c === "object" && "attribute" in c) parts.push(`attribute ${String(c.attribute)}`);
  }
  return parts.join(": ") || String(e);
}

interface Discovered {
  key: string;
  config: oidc.Configuration;
  at: number;
}

export class OidcClient {
  /** Lifetime of the binding cookie: as long as a started sign-in stays valid. */
  static readonly cookieSeconds = FLOW_SECONDS;
  private discovered: Discovered | null = null;
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
    const config = await this.configuration(s);
    this.prune();
    const keep = binding && BINDING.test(binding) ? binding : random();
    const state = oidc.randomState();
    const flow: PendingFlow = {
      verifier: oidc.randomPKCECodeVerifier(),
      nonce: oidc.randomNonce(),
      bindingHash: sha256(keep),
      redirectUri: s.redirectUri,
      expires: this.now() + FLOW_SECONDS * 1000,
    };
    this.flows.set(state, flow);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      scope: s.scope,
      state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: "S256",
    });
    // The browser is sent there: nothing but http(s) may get there.
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw unreachable("discovery", `authorization endpoint ${url.origin} is not http(s)`);
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
    if (!p.state || !flow || flow.expires < this.now()) {
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
    const config = await this.configuration(s);
    const issuer = config.serverMetadata().issuer;
    // RFC 9207: when the IdP names itself in the response, it must be the one we sent the user to
    // (openid-client checks it too; this says so in words).
    if (p.iss !== null && p.iss !== issuer) {
      throw new OidcError(
        "The sign-in response came from another identity provider",
        `iss ${p.iss} is not ${issuer}`,
      );
    }
    const callback = new URL(flow.redirectUri);
    callback.search = "";
    callback.searchParams.set("code", p.code);
    callback.searchParams.set("state", p.state);
    if (p.iss !== null) callback.searchParams.set("iss", p.iss);

    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        callback,
        {
          pkceCodeVerifier: flow.verifier,
          expectedState: p.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: flow.redirectUri },
      );
    } catch (e) {
      throw this.refusal(e);
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw new OidcError("The identity provider's ID token was rejected", "no ID token");
    const info = tokens.access_token ? await this.userinfo(config, tokens.access_token, idClaims.sub) : {};
    // Signed ID token claims win; userinfo fills in what the IdP keeps out of the token (often groups).
    return { claims: { ...info, ...idClaims }, redirectUri: flow.redirectUri };
  }

  /** What a failed code exchange says to the user and to the log. */
  private refusal(e: unknown): OidcError {
    const own = ownError(e);
    if (own) return own;
    if (e instanceof oidc.ResponseBodyError) {
      const why = `${e.error}${e.error_description ? ` (${e.error_description})` : ""}`;
      return new OidcError("The identity provider did not accept the sign-in code", `token endpoint: ${why}`);
    }
    return new OidcError(
      "The identity provider's ID token was rejected",
      `token response rejected: ${describe(e)}`,
    );
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

  /** openid-client's fetch, through the guarded fetcher (timeouts, size cap, address policy). */
  private readonly customFetch: oidc.CustomFetch = async (url, options) => {
    const what = new URL(url).pathname;
    let res;
    try {
      res = await this.fetcher(url, {
        method: options.method,
        headers: options.headers,
        body:
          options.body === undefined || options.body === null
            ? undefined
            : options.body instanceof URLSearchParams
              ? options.body.toString()
              : typeof options.body === "string" || options.body instanceof Uint8Array
                ? options.body
                : new Uint8Array(await new Response(options.body).arrayBuffer()),
        redirect: "manual",
        signal: options.signal,
        connectTimeoutMs: 5000,
        timeoutMs: 10_000,
        maxBytes: 1024 * 1024,
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
      throw unreachable(what, `${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const empty = res.status === 204 || res.status === 304;
    return new Response(empty ? null : new Uint8Array(res.body), {
      status: res.status,
      headers: res.headers,
    });
  };

  /** Discovery (cached an hour) and the client's settings: which client authentication, which checks. */
  private async configuration(s: OidcSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify([s.configurationUrl, s.clientId, s.clientSecret]);
    const cached = this.discovered;
    if (cached && cached.key === key && this.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    // OIDC Discovery §4.3: the document must name the issuer it was fetched for. Given the issuer (the
    // configuration URL without its well-known suffix), openid-client fetches the document and refuses
    // any other issuer; a configuration URL of another shape is fetched as it is.
    const server = new URL(s.configurationUrl.replace(WELL_KNOWN, ""));
    const insecure = server.protocol === "http:";
    let config: oidc.Configuration;
    try {
      config = await oidc.discovery(server, s.clientId, { [oidc.clockTolerance]: 60 }, undefined, {
        [oidc.customFetch]: this.customFetch,
        timeout: 10,
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      });
    } catch (e) {
      const own = ownError(e);
      if (own) throw unreachable("discovery", own.logDetail);
      const attribute = (e as { cause?: { attribute?: unknown; body?: { issuer?: unknown } } }).cause;
      if (attribute?.attribute === "issuer")
        throw new OidcError(
          "The identity provider's configuration is not its own; ask your administrator",
          `discovery: ${s.configurationUrl} names the issuer ${String(attribute.body?.issuer)}, not ${server.href}`,
        );
      throw unreachable(
        "discovery",
        `${s.configurationUrl} gave no usable OpenID configuration: ${describe(e)}`,
      );
    }
    if (!WELL_KNOWN.test(s.configurationUrl))
      this.log.warn(
        `OIDC: ${s.configurationUrl} is not an issuer's /.well-known/openid-configuration; its issuer is not checked`,
      );
    // The document as the IdP sent it (serverMetadata() adds helper methods).
    const { supportsPKCE: _helper, ...meta } = config.serverMetadata();
    // The same choice as before the library: basic when the IdP takes it (or names nothing else).
    const methods = meta.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
    const auth =
      s.clientSecret === null
        ? oidc.None()
        : methods.includes("client_secret_basic") || !methods.includes("client_secret_post")
          ? oidc.ClientSecretBasic(s.clientSecret)
          : oidc.ClientSecretPost(s.clientSecret);
    // Never an unsigned ID token, and HS* (signed with the client secret) only when there is a secret.
    // Without a list, openid-client accepts RS256 alone.
    const algs = meta.id_token_signing_alg_values_supported?.filter(
      (a) => a !== "none" && (!a.startsWith("HS") || s.clientSecret !== null),
    );
    config = new oidc.Configuration(
      { ...meta, ...(algs ? { id_token_signing_alg_values_supported: algs } : {}) },
      s.clientId,
      { [oidc.clockTolerance]: 60 },
      auth,
    );
    config[oidc.customFetch] = this.customFetch;
    config.timeout = 10;
    if (insecure) {
      oidc.allowInsecureRequests(config);
      // Without TLS nothing vouches for the token endpoint's answer: check the ID token's signature
      // against the IdP's keys too (over https, OIDC Core §3.1.3.7 lets TLS do it).
      oidc.enableNonRepudiationChecks(config);
    }
    this.discovered = { key, config, at: this.now() };
    return config;
  }

  private async userinfo(
    config: oidc.Configuration,
    accessToken: string,
    sub: string,
  ): Promise<Record<string, unknown>> {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    let info: Record<string, unknown>;
    try {
      info = await oidc.fetchUserInfo(config, accessToken, oidc.skipSubjectCheck);
    } catch (e) {
      this.log.warn(`OIDC: userinfo failed (${describe(e)}); using the ID token's claims only`);
      return {};
    }
    // OIDC Core §5.3.2: a userinfo answer about someone else must not be used.
    if (info.sub !== sub)
      throw new OidcError(
        "The identity provider's answers do not match",
        `userinfo sub ${String(info.sub)} is not ${sub}`,
      );
    return info;
  }
}
