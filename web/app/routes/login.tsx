/**
 * /login (spec §2; /login?direct=1 after logout): username or email + password + remember me, and the
 * OIDC button when app info enables it. On success the session token goes into the
 * `mealie.access_token` cookie (shared with /api) and the user lands on their group home. Messages:
 * 'Invalid Credentials' and 'Account Locked. Please try again later' (spec §8). A plain form post, so it
 * works without JavaScript.
 */
import { data, redirect, type MetaFunction } from "react-router";
import { PasswordField } from "../components/PasswordField.js";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Divider,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { LogoIcon } from "../components/icons.js";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { appInfo } from "../lib/app-info.server.js";
import { statusOf } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { getUserActor, groupSlugOf, safeRedirectPath, sessionCookie } from "../lib/session.server.js";
import type { LoaderArgs, ActionArgs } from "../lib/context.js";

/** Keys of the common catalogue; the component translates them (spec §8 wording). */
const INVALID_CREDENTIALS = "errors.invalidCredentials";
const ACCOUNT_LOCKED = "errors.accountLocked";
const TOO_MANY_ATTEMPTS = "errors.tooManyAttempts";
const DIRECTORY_UNAVAILABLE = "errors.directoryUnavailable";
const NOT_ALLOWED = "errors.notAllowed";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "shell")("login.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const direct = url.searchParams.get("direct") === "1";
  const actor = await getUserActor(request, context);
  const group = actor ? groupSlugOf(context, actor.user) : null;
  if (group) throw redirect(redirectTo ?? `/g/${group}`);
  const info = appInfo(context.larder);
  // OIDC auto-redirect, except right after a logout (?direct=1), which would sign the user straight back in.
  if (info.enableOidc && info.oidcRedirect && !direct) throw redirect("/api/auth/oauth");
  return {
    redirectTo,
    direct,
    oidc: info.enableOidc ? { provider: info.oidcProviderName } : null,
    passwordLogin: info.allowPasswordLogin,
    allowSignup: info.allowSignup,
    // A fresh server: point to the first-time setup (decision 0100; / goes there directly).
    setupNeeded: await context.larder.setup.needed(),
    notice: url.searchParams.get("reset")
      ? "reset"
      : url.searchParams.get("restored") === "undone"
        ? "restoreUndone"
        : url.searchParams.get("restored")
          ? "restored"
          : null,
    // Set by the OIDC callback when the sign-in did not work (web/api/routes/auth.ts): a fixed word.
    oidcError:
      ({ refused: "errors.oidcRefused", failed: "errors.oidcFailed" } as Record<string, string>)[
        url.searchParams.get("oidc") ?? ""
      ] ?? null,
  };
}

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  const username = String(form.get("username") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const rememberMe = form.get("remember_me") === "on" || form.get("remember_me") === "true";
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const { larder } = context;

  let session: { token: string; maxAge: number };
  try {
    if (!username || !password) throw Object.assign(new Error("missing credentials"), { status: 401 });
    session = await larder.auth.login(username, password, { rememberMe, client: context.clientAddress });
  } catch (e) {
    const status = statusOf(e);
    if (status === 423) return data({ error: ACCOUNT_LOCKED, username }, { status: 423 });
    if (status === 429) return data({ error: TOO_MANY_ATTEMPTS, username }, { status: 429 });
    if (status === 401 || status === 400 || status === 403 || status === 422) {
      // The directory's own refusals say more than "invalid credentials". Told apart by the error's
      // name: web/app takes no values from core (core/auth/external.ts sets the names).
      const name = (e as Error | null)?.name;
      const error =
        name === "DirectoryUnavailableError"
          ? DIRECTORY_UNAVAILABLE
          : name === "NotAllowedToSignInError"
            ? NOT_ALLOWED
            : INVALID_CREDENTIALS;
      return data({ error, username }, { status: 401 });
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
  const { redirectTo, oidc, passwordLogin, allowSignup, notice, setupNeeded, oidcError } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT("shell");
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <PlainLayout>
      <main className="auth" id="main" tabIndex={-1}>
        <Paper className="auth__card" withBorder shadow="sm" radius="lg" p="xl" aria-labelledby="login-title">
          <LogoIcon className="auth__logo" />
          <Title order={1} id="login-title" className="auth__title">
            {t("login.title")}
          </Title>
          {setupNeeded ? (
            <Alert color="primary" variant="light" mb="md" data-testid="setup-notice">
              {t("onboarding:login.setupNeeded")}{" "}
              <Anchor component={Link} to="/setup">
                {t("onboarding:login.setupLink")}
              </Anchor>
            </Alert>
          ) : null}
          {oidcError && !result?.error ? (
            <Alert color="error" variant="light" role="alert" mb="md" data-testid="oidc-error">
              {t(`common:${oidcError}`)}
            </Alert>
          ) : null}
          {passwordLogin ? (
            <Form method="post" replace>
              <Stack gap="md">
                {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
                {notice && !result?.error ? (
                  <Alert
                    color={notice === "restoreUndone" ? "warning" : "success"}
                    variant="light"
                    role="status"
                    data-testid="login-notice"
                  >
                    {t(`onboarding:login.${notice}`)}
                  </Alert>
                ) : null}
                {result?.error ? (
                  <Alert color="error" variant="light" role="alert" data-testid="login-error">
                    {t(`common:${result.error}`)}
                  </Alert>
                ) : null}
                <TextInput
                  id="username"
                  name="username"
                  label={t("login.usernameOrEmail")}
                  autoComplete="username"
                  required
                  autoFocus
                  defaultValue={result?.username ?? ""}
                  error={result?.error ? true : undefined}
                />
                <PasswordField
                  id="password"
                  name="password"
                  label={t("login.password")}
                  autoComplete="current-password"
                  required
                  error={result?.error ? true : undefined}
                />
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Checkbox name="remember_me" label={t("login.rememberMe")} />
                  <Anchor component={Link} to="/forgot-password" size="sm" data-testid="forgot-password">
                    {t("onboarding:login.forgot")}
                  </Anchor>
                </Group>
                <Button type="submit" fullWidth loading={busy}>
                  {t("login.submit")}
                </Button>
              </Stack>
            </Form>
          ) : (
            <Alert color="info" variant="light">
              {t("login.passwordLoginDisabled")}
            </Alert>
          )}
          {allowSignup ? (
            <Text size="sm" ta="center" mt="md">
              {t("onboarding:login.noAccount")}{" "}
              <Anchor component={Link} to="/register" data-testid="signup-link">
                {t("onboarding:login.signUp")}
              </Anchor>
            </Text>
          ) : null}
          {oidc ? (
            <>
              {passwordLogin ? <Divider my="md" label={t("login.or")} labelPosition="center" /> : null}
              {/* A full page load: the API answers with a redirect to the identity provider. */}
              <Button
                component="a"
                href="/api/auth/oauth"
                variant="outline"
                fullWidth
                data-testid="oidc-login"
              >
                {t("login.oidc", { provider: oidc.provider })}
              </Button>
            </>
          ) : null}
        </Paper>
      </main>
    </PlainLayout>
  );
}
