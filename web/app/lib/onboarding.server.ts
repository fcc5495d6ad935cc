/** After sign-up or the first-time setup: sign the new account in and go to its group home. */
import { redirect, type AppLoadContext } from "react-router";
import { groupSlugOf, sessionCookie } from "./session.server.js";

export async function signInAndGo(
  request: Request,
  context: AppLoadContext,
  login: string,
  password: string,
  extraCookies: string[] = [],
): Promise<Response> {
  const session = await context.larder.auth.login(login, password);
  const actor = await context.larder.auth.authenticateToken(session.token);
  const slug = actor?.kind === "user" ? groupSlugOf(context, actor.user) : null;
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookie(request, context, session.token, session.maxAge));
  for (const c of extraCookies) headers.append("Set-Cookie", c);
  return redirect(slug ? `/g/${slug}` : "/", { headers });
}
