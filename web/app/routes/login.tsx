/**
 * /login: username or email + password (+ remember me). On success the session token goes into the
 * `mealie.access_token` cookie (shared with /api) and the user lands on their group home.
 */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { TopBar } from "../components/TopBar.js";
import { LogoIcon } from "../components/icons.js";
import { statusOf } from "../lib/errors.server.js";
import { getUserActor, groupSlugOf, safeRedirectPath, sessionCookie } from "../lib/session.server.js";

const INVALID_CREDENTIALS = "Invalid Credentials";
const ACCOUNT_LOCKED = "Account Locked. Please try again later";

export const meta: MetaFunction = () => [{ title: "Login | Larder" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const actor = await getUserActor(request, context);
  const group = actor ? groupSlugOf(context, actor.user) : null;
  if (group) throw redirect(redirectTo ?? `/g/${group}`);
  return { redirectTo };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const username = String(form.get("username") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const rememberMe = form.get("remember_me") === "on" || form.get("remember_me") === "true";
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const { larder } = context;

  let session: { token: string; maxAge: number };
  try {
    if (!username || !password) throw Object.assign(new Error("missing credentials"), { status: 401 });
    session = await larder.auth.login(username, password, { rememberMe });
  } catch (e) {
    const status = statusOf(e);
    if (status === 423) return data({ error: ACCOUNT_LOCKED, username }, { status: 423 });
    if (status === 401 || status === 400 || status === 403 || status === 422) {
      return data({ error: INVALID_CREDENTIALS, username }, { status: 401 });
    }
    throw e;
  }

  const actor = await larder.auth.authenticateToken(session.token);
  const group = actor?.kind === "user" ? groupSlugOf(context, actor.user) : null;
  return redirect(redirectTo ?? (group ? `/g/${group}` : "/"), {
    headers: { "Set-Cookie": sessionCookie(request, context, session.token, session.maxAge) },
  });
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <>
      <TopBar plain />
      <main className="auth" id="main">
        <section className="auth__card" aria-labelledby="login-title">
          <LogoIcon className="auth__logo" />
          <h1 id="login-title" className="auth__title">
            Login
          </h1>
          <Form method="post" className="form" replace>
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
            {result?.error ? (
              <p className="alert alert--error" role="alert">
                {result.error}
              </p>
            ) : null}
            <div className="field">
              <label htmlFor="username">Username or email</label>
              <input
                id="username"
                name="username"
                type="text"
                autoComplete="username"
                required
                autoFocus
                defaultValue={result?.username ?? ""}
                aria-invalid={result?.error ? true : undefined}
              />
            </div>
            <div className="field">
              <label htmlFor="password">Password</label>
              <input id="password" name="password" type="password" autoComplete="current-password" required />
            </div>
            <label className="checkbox">
              <input type="checkbox" name="remember_me" />
              <span>Remember me</span>
            </label>
            <button type="submit" className="button button--primary button--block" disabled={busy}>
              {busy ? "Logging in…" : "Login"}
            </button>
          </Form>
        </section>
      </main>
    </>
  );
}
