/** POST /logout: end the session in core, clear the cookie, back to /login?direct=1. */
import { redirect } from "react-router";
import { getUserActor, sessionCookie } from "../lib/session.server.js";
import type { ActionArgs } from "../lib/context.js";

export async function action({ request, context }: ActionArgs) {
  const actor = await getUserActor(request, context);
  if (actor) {
    try {
      await context.larder.auth.logout(actor);
    } catch (e) {
      context.larder.log.warn("logout: could not end the session", e);
    }
  }
  return redirect("/login?direct=1", { headers: { "Set-Cookie": sessionCookie(request, context, "", 0) } });
}

/** GET /logout changes nothing (a link or prefetch must not sign anyone out). */
export function loader() {
  return redirect("/");
}
