/**
 * /register: sign-up (spec §2 "sign-up"; mealie-api-notes §6). Without a token it is open only when
 * the server allows sign-up (ALLOW_SIGNUP) and creates the visitor's own group; with
 * `/register?token=…` it is the invitation acceptance: the page names the household the link joins
 * and the new account lands there. Rules of spec §5 as the visitor types, again in core; afterwards the
 * new user is signed in on their group home.
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
import { Alert, Anchor, Button, Checkbox, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { PasswordFields } from "../components/onboarding/PasswordFields.js";
import { problemText } from "../components/profile/ProblemText.js";
import { appInfo } from "../lib/app-info.server.js";
import { attempt, field, flag } from "../lib/admin.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { detectLanguage, serverT } from "../lib/i18n.server.js";
import { signInAndGo } from "../lib/onboarding.server.js";
import { getUserActor } from "../lib/session.server.js";
import { PASSWORD_MIN, check, passwordsMatch, rules, type Problem } from "../lib/validation.js";
import { useDataToast } from "../lib/toast.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "onboarding")("register.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  if (await getUserActor(request, context)) throw redirect("/");
  const token = new URL(request.url).searchParams.get("token");
  const invitation = token ? context.larder.registration.describeInvitation(token) : null;
  return {
    token,
    invitation,
    open: token ? invitation !== null : appInfo(context.larder).allowSignup,
  };
}

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  const t = serverT(request, "onboarding");
  const how = { t, log: context.larder.log };
  const token = field(form, "token");
  const body = {
    fullName: field(form, "fullName"),
    username: field(form, "username"),
    email: field(form, "email"),
    password: field(form, "password"),
    passwordConfirm: field(form, "passwordConfirm"),
    ...(token
      ? { groupToken: token }
      : {
          group: field(form, "group"),
          household: field(form, "household") || null,
          private: flag(form, "private"),
          seedData: flag(form, "seedData"),
          locale: detectLanguage(request),
        }),
  };
  const result = await attempt("register", how, () => context.larder.registration.register(body));
  if (!result.ok) return data(result, { status: 400 });
  return signInAndGo(request, context, body.username, body.password);
}

export default function Register() {
  const { token, invitation, open } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const t = useT("onboarding");
  const tc = useT("common");
  useDataToast(result);
  const [v, setV] = useState({
    fullName: "",
    username: "",
    email: "",
    password: "",
    passwordConfirm: "",
    group: "",
    household: "",
    private: false,
    seedData: true,
  });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const set = (k: keyof typeof v, value: string | boolean) => setV((s) => ({ ...s, [k]: value }));
  const blur = (k: string) => setTouched((s) => ({ ...s, [k]: true }));
  const local: Record<string, Problem | null> = {
    fullName: check(v.fullName, rules.required, rules.maxLength(200)),
    username: check(v.username, rules.required, rules.noWhitespace, rules.maxLength(100)),
    email: check(v.email, rules.required, rules.email),
    password: check(v.password, rules.required, rules.minLength(PASSWORD_MIN)),
    passwordConfirm:
      check(v.passwordConfirm, rules.required) ?? passwordsMatch(v.password, v.passwordConfirm),
    group: token ? null : check(v.group, rules.required, rules.maxLength(200)),
  };
  const server: Record<string, Problem> = (result && !result.ok ? result.problems : undefined) ?? {};
  const error = (k: string) => problemText(tc, (touched[k] ? local[k] : null) ?? server[k]);
  const text = (k: "fullName" | "username" | "email" | "group" | "household", label: string, more = {}) => (
    <TextInput
      id={k}
      label={label}
      value={v[k]}
      onChange={(e) => set(k, e.currentTarget.value)}
      onBlur={() => blur(k)}
      error={error(k)}
      data-testid={`field-${k}`}
      {...more}
    />
  );

  return (
    <PlainLayout>
      <main className="onboarding" id="main" tabIndex={-1}>
        <Paper className="onboarding__card" withBorder shadow="sm" radius="lg" p="xl" data-testid="register">
          <Title order={1} mb="xs">
            {invitation ? t("register.invitedTitle") : t("register.title")}
          </Title>
          {!open ? (
            <Stack gap="md">
              <Alert color="info" variant="light" data-testid="register-closed">
                {token ? t("register.invalidToken") : t("register.disabled")}
              </Alert>
              <Anchor component={Link} to="/login">
                {t("backToLogin")}
              </Anchor>
            </Stack>
          ) : (
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                setTouched(Object.fromEntries(Object.keys(local).map((k) => [k, true])));
                if (Object.values(local).some(Boolean)) return;
                const fd = new FormData();
                for (const [k, val] of Object.entries(v)) fd.set(k, String(val));
                if (token) fd.set("token", token);
                void submit(fd, { method: "post" });
              }}
            >
              <Stack gap="sm">
                {invitation ? (
                  <Alert color="primary" variant="light" data-testid="invitation">
                    {t("register.invitedTo", { household: invitation.household, group: invitation.group })}
                  </Alert>
                ) : (
                  <Text c="dimmed" size="sm">
                    {t("register.intro")}
                  </Text>
                )}
                {text("fullName", t("fields.fullName"), { required: true, autoComplete: "name" })}
                {text("username", t("fields.username"), { required: true, autoComplete: "username" })}
                {text("email", t("fields.email"), { required: true, type: "email", autoComplete: "email" })}
                <PasswordFields
                  password={v.password}
                  confirm={v.passwordConfirm}
                  onPassword={(x) => set("password", x)}
                  onConfirm={(x) => set("passwordConfirm", x)}
                  onBlur={blur}
                  passwordError={error("password")}
                  confirmError={error("passwordConfirm")}
                />
                {!token ? (
                  <>
                    {text("group", t("fields.group"), {
                      required: true,
                      description: t("register.groupHelp"),
                    })}
                    {text("household", t("fields.household"), {
                      placeholder: t("register.householdDefault"),
                    })}
                    <Checkbox
                      label={t("register.private")}
                      description={t("register.privateHelp")}
                      checked={v.private}
                      onChange={(e) => set("private", e.currentTarget.checked)}
                    />
                    <Checkbox
                      label={t("setup.seed")}
                      description={t("setup.seedHelp")}
                      checked={v.seedData}
                      onChange={(e) => set("seedData", e.currentTarget.checked)}
                    />
                  </>
                ) : null}
                <Button
                  type="submit"
                  fullWidth
                  loading={navigation.state !== "idle"}
                  data-testid="register-submit"
                >
                  {t("register.submit")}
                </Button>
                <Text size="sm" ta="center">
                  {t("register.haveAccount")}{" "}
                  <Anchor component={Link} to="/login">
                    {tc("actions.login")}
                  </Anchor>
                </Text>
              </Stack>
            </form>
          )}
        </Paper>
      </main>
    </PlainLayout>
  );
}
