/**
 * A real OpenID provider (npm oidc-provider) on loopback for the OIDC sign-in tests, plus a tiny
 * "browser" that walks its built-in devInteractions (login form, consent form) with fetch, manual
 * redirects and a cookie jar (stack.md "Test helpers").
 *
 * The HTTP server starts first so its URL (the issuer) is known before Larder's config is written;
 * the provider itself is created by `register()`, once Larder's redirect URIs are known.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

export const IDP_CLIENT = { id: "larder", secret: "larder-client-secret" };
export const IDP_PUBLIC_CLIENT = "larder-public";
export const USER_GROUP = "larder-users";
export const ADMIN_GROUP = "larder-admins";

export interface IdpAccount {
  email: string;
  name: string;
  groups: string[];
  email_verified?: boolean;
  preferred_username?: string;
}

/** People at the IdP. Tests may change them (e.g. groups) between sign-ins. */
export function defaultAccounts(): Record<string, IdpAccount> {
  return {
    olivia: { email: "olivia@idp.test", name: "Olivia Owner", groups: [USER_GROUP, ADMIN_GROUP] },
    pete: { email: "pete@idp.test", name: "Pete Plain", groups: [USER_GROUP] },
    quinn: { email: "quinn@idp.test", name: "Quinn Elsewhere", groups: ["another-app"] },
    // Claims the first admin's address without the IdP having checked it.
    mallory: { email: "changeme@example.com", name: "Mallory", groups: [USER_GROUP], email_verified: false },
  };
}

export interface TestIdp {
  issuer: string;
  discoveryUrl: string;
  accounts: Record<string, IdpAccount>;
  /** Create the provider with these redirect URIs for both the confidential and the public client. */
  register(redirectUris: string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestIdp(): Promise<TestIdp> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503).end("not configured yet");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = defaultAccounts();

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    accounts,
    async register(redirectUris) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: IDP_CLIENT.id,
            client_secret: IDP_CLIENT.secret,
            redirect_uris: redirectUris,
            grant_types: ["authorization_code"],
            response_types: ["code"],
            token_endpoint_auth_method: "client_secret_basic",
          },
          {
            client_id: IDP_PUBLIC_CLIENT,
            redirect_uris: redirectUris,
            grant_types: ["authorization_code"],
            response_types: ["code"],
            token_endpoint_auth_method: "none",
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ["test-idp-cookie-key"] },
        scopes: ["openid", "email", "profile", "groups"],
        claims: {
          openid: ["sub"],
          email: ["email", "email_verified"],
          profile: ["name", "preferred_username"],
          groups: ["groups"],
        },
        features: { devInteractions: { enabled: true } },
        pkce: { required: () => true },
        // Explicit lifetimes: the defaults work but print a notice per artifact type.
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 3600,
          IdToken: 600,
          Interaction: 600,
          Session: 3600,
        },
        async findAccount(_ctx: unknown, id: string) {
          const a = accounts[id];
          if (!a) return undefined;
          return {
            accountId: id,
            async claims() {
              return { sub: id, email_verified: true, preferred_username: id, ...a };
            },
          };
        },
      });
      handler = provider.callback();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A cookie jar that ignores domain and path: every cookie goes to both servers on 127.0.0.1. */
export class CookieJar {
  private cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || pair.slice(i + 1).trim() === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(i + 1).trim());
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  delete(name: string): void {
    this.cookies.delete(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.header());
    return fetch(url, { ...init, headers, redirect: "manual" }).then((res) => {
      this.take(res);
      return res;
    });
  }
}

/**
 * Walk the browser from `start` (Larder's GET /api/auth/oauth, or an IdP URL) through the IdP's
 * login and consent pages as `login`, until a redirect points at a URL starting with `stopAt`.
 * Returns that URL (carrying code and state); the jar keeps every cookie set on the way.
 */
export async function browseSignIn(
  jar: CookieJar,
  start: string,
  login: string,
  stopAt: string,
): Promise<URL> {
  let url = start;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(stopAt)) return new URL(url);
    const res = await jar.fetch(url, init);
    init = {};
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    const html = await res.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !prompt || !action)
      throw new Error(`unexpected answer ${res.status} from ${url}: ${html.slice(0, 500)}`);
    const form: Record<string, string> = prompt === "login" ? { prompt, login, password: "any" } : { prompt };
    url = new URL(action.replace(/&amp;/g, "&"), url).toString();
    init = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    };
  }
  throw new Error(`sign-in did not reach ${stopAt}`);
}
