/** /api/auth: form login, OIDC sign-in, refresh, logout (mealie-api-notes §2, decision 0010). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { SESSION_COOKIE, readCookie } from "../handler.js";
import { isSecure, sessionCookie } from "../../server/edge.js";
import type { ApiContext } from "../context.js";
import { LarderError, TooManyRequestsError } from "../../../core/errors.js";
import { clientAddress } from "../../server/client-address.js";

/** Ties a started OIDC sign-in to the browser that started it (see core/auth/oidc.ts). */
const OIDC_BINDING_COOKIE = "larder.oidc";

function cookie(ctx: ApiContext, value: string, maxAge: number, name = SESSION_COOKIE, path = "/"): string {
  const proto = ctx.req.headers["x-forwarded-proto"];
  const secure = isSecure("http:", Array.isArray(proto) ? proto[0] : proto, ctx.larder.config.baseUrl);
  return sessionCookie(value, maxAge, secure, name, path);
}

// Lax, so the cookie comes along when the IdP sends the browser back with a top-level GET.
const bindingCookie = (ctx: ApiContext, value: string, maxAge: number) =>
  cookie(ctx, value, maxAge, OIDC_BINDING_COOKIE, "/api/auth/oauth");

export const authRoutes = [
  route("POST", "/api/auth/token", "public", async (ctx) => {
    const form = await ctx.form();
    const remember = /^(1|true|on|yes)$/i.test(form.remember_me ?? form.rememberMe ?? "");
    let session: { token: string; maxAge: number };
    try {
      session = await ctx.larder.auth.login(form.username ?? "", form.password ?? "", {
        rememberMe: remember,
        client: clientAddress(ctx.req, ctx.larder.config.trustedProxies),
      });
    } catch (e) {
      if (!(e instanceof TooManyRequestsError)) throw e;
      return Reply.json(429, e.body(), { "Retry-After": String(e.retryAfterSeconds) });
    }
    const { token, maxAge } = session;
    return Reply.json(
      200,
      { access_token: token, token_type: "bearer" },
      { "Set-Cookie": cookie(ctx, token, maxAge) },
    );
  }),
  route("GET", "/api/auth/oauth", "public", async (ctx) => {
    const { url, binding, maxAge } = await ctx.larder.auth.oidcBegin(
      readCookie(ctx.req.headers.cookie, OIDC_BINDING_COOKIE),
    );
    return Reply.json(302, null, {
      Location: url,
      "Set-Cookie": bindingCookie(ctx, binding, maxAge),
      "Cache-Control": "no-store",
    });
  }),
  route("GET", "/api/auth/oauth/callback", "public", async (ctx) => {
    try {
      return await oidcCallback(ctx);
    } catch (e) {
      // A browser that came back from the identity provider lands on the sign-in page with a word of
      // why, not on an error document. The reason itself goes to the log; the page shows a fixed text,
      // so no one can make it say something else through the link.
      if (!/text\/html/.test(ctx.req.headers.accept ?? "")) throw e;
      const status = e instanceof LarderError ? e.status : 500;
      ctx.larder.log.warn(`OIDC sign-in refused (${status}):`, e instanceof Error ? e.message : e);
      const reason = status === 401 || status === 403 ? "refused" : "failed";
      return Reply.json(302, null, { Location: `/login?oidc=${reason}`, "Cache-Control": "no-store" });
    }
  }),
  route("GET", "/api/auth/refresh", "user", async (ctx) => {
    const { token, maxAge } = await ctx.larder.auth.refresh(ctx.actor);
    return Reply.json(
      200,
      { access_token: token, token_type: "bearer" },
      { "Set-Cookie": cookie(ctx, token, maxAge) },
    );
  }),
  // The Nuxt frontend calls refresh with POST; answer both.
  route("POST", "/api/auth/refresh", "user", async (ctx) => {
    const { token, maxAge } = await ctx.larder.auth.refresh(ctx.actor);
    return Reply.json(
      200,
      { access_token: token, token_type: "bearer" },
      { "Set-Cookie": cookie(ctx, token, maxAge) },
    );
  }),
  route("POST", "/api/auth/logout", "user", async (ctx) => {
    await ctx.larder.auth.logout(ctx.actor);
    return Reply.json(200, { message: "Logged out" }, { "Set-Cookie": cookie(ctx, "", 0) });
  }),
];

/** GET /api/auth/oauth/callback: the identity provider's answer, to a session. */
async function oidcCallback(ctx: ApiContext): Promise<Reply> {
  const q = ctx.query;
  const { token, maxAge, landing } = await ctx.larder.auth.oidcLogin(
    {
      code: q.get("code"),
      state: q.get("state"),
      iss: q.get("iss"),
      error: q.get("error"),
      errorDescription: q.get("error_description"),
    },
    readCookie(ctx.req.headers.cookie, OIDC_BINDING_COOKIE),
  );
  const headers = { "Set-Cookie": cookie(ctx, token, maxAge), "Cache-Control": "no-store" };
  // Straight from the IdP (Larder's redirect URI): a browser page load, so land it on the app.
  // Relayed by a frontend from its /login page (Mealie's redirect URI): Mealie's token JSON.
  if (landing === "redirect") return Reply.json(302, null, { ...headers, Location: "/" });
  return Reply.json(200, { access_token: token, token_type: "bearer" }, headers);
}
