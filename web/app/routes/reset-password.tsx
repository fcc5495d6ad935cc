/**
 * /reset-password?token=… (the e-mailed link, or one an admin made on the users page): choose a new
 * password. An unknown, used or expired link says so; afterwards the login page says the password
 * changed. The token travels in the form, never in a log line.
 */
import { useState } from "react";
import {
  Link,
  data,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
  type MetaFunction,
} from "react-router";
import { Alert, Anchor, Button, Paper, Stack, Title } from "@mantine/core";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { PasswordFields } from "../components/onboarding/PasswordFields.js";
import { problemText } from "../components/profile/ProblemText.js";
import { attempt, field } from "../lib/admin.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { PASSWORD_MIN, check, passwordsMatch, rules, type Problem } from "../lib/validation.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "onboarding")("reset.title")} | ${metaT(matches)("appName")}` },
];

export function loader({ request }: LoaderArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  const t = serverT(request, "onboarding");
  const how = { t, log: context.larder.log };
  const result = await attempt("reset", how, () =>
    context.larder.registration.resetPassword({
      token: field(form, "token"),
      password: field(form, "password"),
      passwordConfirm: field(form, "passwordConfirm"),
    }),
  );
  if (!result.ok) return data(result, { status: 400 });
  throw redirect("/login?reset=1");
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const t = useT("onboarding");
  const tc = useT("common");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const local: Record<string, Problem | null> = {
    password: check(password, rules.required, rules.minLength(PASSWORD_MIN)),
    passwordConfirm: check(confirm, rules.required) ?? passwordsMatch(password, confirm),
  };
  const server: Record<string, Problem> = (result && !result.ok ? result.problems : undefined) ?? {};
  const error = (k: string) => problemText(tc, (touched[k] ? local[k] : null) ?? server[k]);
  const failure = result && !result.ok && !result.problems ? result.toast?.message : null;
  return (
    <PlainLayout>
      <main className="auth" id="main" tabIndex={-1}>
        <Paper className="auth__card" withBorder shadow="sm" radius="lg" p="xl">
          <Title order={1} className="auth__title">
            {t("reset.title")}
          </Title>
          {!token ? (
            <Stack gap="md">
              <Alert color="error" variant="light" role="alert" data-testid="reset-error">
                {t("reset.invalidToken")}
              </Alert>
              <Anchor component={Link} to="/forgot-password">
                {t("reset.askAgain")}
              </Anchor>
            </Stack>
          ) : (
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                setTouched({ password: true, passwordConfirm: true });
                if (Object.values(local).some(Boolean)) return;
                void submit({ token, password, passwordConfirm: confirm }, { method: "post" });
              }}
            >
              <Stack gap="md">
                {failure ? (
                  <Alert color="error" variant="light" role="alert" data-testid="reset-error">
                    {failure}{" "}
                    <Anchor component={Link} to="/forgot-password">
                      {t("reset.askAgain")}
                    </Anchor>
                  </Alert>
                ) : null}
                <PasswordFields
                  password={password}
                  confirm={confirm}
                  onPassword={setPassword}
                  onConfirm={setConfirm}
                  onBlur={(k) => setTouched((s) => ({ ...s, [k]: true }))}
                  passwordError={error("password")}
                  confirmError={error("passwordConfirm")}
                />
                <Button
                  type="submit"
                  fullWidth
                  loading={navigation.state !== "idle"}
                  data-testid="reset-submit"
                >
                  {t("reset.submit")}
                </Button>
              </Stack>
            </form>
          )}
        </Paper>
      </main>
    </PlainLayout>
  );
}
