/** /api/auth: form login, refresh, logout (mealie-api-notes §2). */
import { route } from "../router.js";
import { Reply } from "../reply.js";
import { SESSION_COOKIE } from "../handler.js";
import type { ApiContext } from "../context.js";

function cookie(ctx: ApiContext, value: string, maxAge: number): string {
  const secure = ctx.req.headers["x-forwarded-proto"] === "https" || ctx.larder.config.baseUrl.startsWith("https:");
  return `${SESSION_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export const authRoutes = [
  route("POST", "/api/auth/token", "public", async (ctx) => {
    const form = await ctx.form();
    const remember = /^(1|true|on|yes)$/i.test(form.remember_me ?? form.rememberMe ?? "");
    const { token, maxAge } = await ctx.larder.auth.login(form.username ?? "", form.password ?? "", { rememberMe: remember });
    return Reply.json(200, { access_token: token, token_type: "bearer" }, { "Set-Cookie": cookie(ctx, token, maxAge) });
  }),
  route("GET", "/api/auth/refresh", "user", async (ctx) => {
    const { token, maxAge } = await ctx.larder.auth.refresh(ctx.actor);
    return Reply.json(200, { access_token: token, token_type: "bearer" }, { "Set-Cookie": cookie(ctx, token, maxAge) });
  }),
  // The Nuxt frontend calls refresh with POST; answer both.
  route("POST", "/api/auth/refresh", "user", async (ctx) => {
    const { token, maxAge } = await ctx.larder.auth.refresh(ctx.actor);
    return Reply.json(200, { access_token: token, token_type: "bearer" }, { "Set-Cookie": cookie(ctx, token, maxAge) });
  }),
  route("POST", "/api/auth/logout", "user", async (ctx) => {
    await ctx.larder.auth.logout(ctx.actor);
    return Reply.json(200, { message: "Logged out" }, { "Set-Cookie": cookie(ctx, "", 0) });
  }),
];
