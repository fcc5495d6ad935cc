/**
 * POST /_lang (language dialog, spec §2): store the chosen language in the `lang` cookie and reload the
 * page the user was on. A plain form post, so the full reload happens with or without JavaScript.
 */
import { redirect } from "react-router";
import { languageOf } from "../lib/i18n.js";
import { languageCookie } from "../lib/i18n.server.js";
import { safeRedirectPath } from "../lib/session.server.js";
import type { ActionArgs } from "../lib/context.js";

export async function action({ request }: ActionArgs) {
  const form = await request.formData();
  const lang = String(form.get("lang") ?? "");
  const raw = String(form.get("redirectTo") ?? "");
  // safeRedirectPath drops /login (it is for after-login redirects); here the login page is a fine target.
  const back = safeRedirectPath(raw) ?? (/^\/login(\?|$)/.test(raw) ? raw : "/");
  if (!languageOf(lang)) return redirect(back);
  return redirect(back, { headers: { "Set-Cookie": languageCookie(lang) } });
}

export function loader() {
  return redirect("/");
}
