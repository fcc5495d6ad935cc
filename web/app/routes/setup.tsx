/**
 * /setup: the first-time setup (decision 0100). A fresh server's first visit comes here (from / and
 * /login) while the first admin still has the default password; four steps — the admin's account,
 * the group and household, language and starter data, a review — then one post that core checks
 * again (core/users/first-setup.ts), after which the admin is signed in on their group home. Once
 * done, this page sends everyone to /login.
 */
import { useEffect, useState } from "react";
import {
  data,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
  useSubmit,
  type MetaFunction,
} from "react-router";
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  Stack,
  Stepper,
  Table,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { PlainLayout } from "../components/shell/PlainLayout.js";
import { PasswordFields } from "../components/onboarding/PasswordFields.js";
import { problemText } from "../components/profile/ProblemText.js";
import { attempt, field, flag } from "../lib/admin.server.js";
import { LANGUAGES, metaT, useT } from "../lib/i18n.js";
import { detectLanguage, languageCookie, serverT } from "../lib/i18n.server.js";
import { signInAndGo } from "../lib/onboarding.server.js";
import { PASSWORD_MIN, check, passwordsMatch, rules, type Problem } from "../lib/validation.js";
import { useDataToast } from "../lib/toast.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "onboarding")("setup.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  const state = await context.larder.setup.state();
  if (!state.needed || !state.current) throw redirect("/login");
  return { current: state.current, lang: detectLanguage(request) };
}

const STEP_OF: Record<string, number> = {
  fullName: 0,
  username: 0,
  email: 0,
  password: 0,
  passwordConfirm: 0,
  group: 1,
  household: 1,
};

export async function action({ request, context }: ActionArgs) {
  const form = await request.formData();
  const t = serverT(request, "onboarding");
  const how = { t, log: context.larder.log };
  const lang = field(form, "locale");
  const body = {
    fullName: field(form, "fullName"),
    username: field(form, "username"),
    email: field(form, "email"),
    password: field(form, "password"),
    passwordConfirm: field(form, "passwordConfirm"),
    group: field(form, "group"),
    household: field(form, "household"),
    locale: lang,
    seedData: flag(form, "seedData"),
  };
  const result = await attempt("setup", how, () => context.larder.setup.complete(body));
  if (!result.ok) return data(result, { status: 400 });
  const cookies = LANGUAGES.some((l) => l.code === lang) ? [languageCookie(lang)] : [];
  return signInAndGo(request, context, body.username, body.password, cookies);
}

type Values = {
  fullName: string;
  username: string;
  email: string;
  password: string;
  passwordConfirm: string;
  group: string;
  household: string;
  locale: string;
  seedData: boolean;
};

export default function Setup() {
  const { current, lang } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const t = useT("onboarding");
  const tc = useT("common");
  useDataToast(result);
  const [step, setStep] = useState(0);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [v, setV] = useState<Values>({
    fullName: current.fullName === "Change Me" ? "" : current.fullName,
    username: current.username,
    email: "",
    password: "",
    passwordConfirm: "",
    group: current.group,
    household: current.household,
    locale: lang,
    seedData: current.foods === 0,
  });
  const set = <K extends keyof Values>(k: K, value: Values[K]) => setV((s) => ({ ...s, [k]: value }));

  const local: Record<string, Problem | null> = {
    fullName: check(v.fullName, rules.required, rules.maxLength(200)),
    username: check(v.username, rules.required, rules.noWhitespace, rules.maxLength(100)),
    email: check(v.email, rules.required, rules.email),
    password: check(v.password, rules.required, rules.minLength(PASSWORD_MIN)),
    passwordConfirm:
      check(v.passwordConfirm, rules.required) ?? passwordsMatch(v.password, v.passwordConfirm),
    group: check(v.group, rules.required, rules.maxLength(200)),
    household: check(v.household, rules.required, rules.maxLength(200)),
  };
  const server: Record<string, Problem> = (result && !result.ok ? result.problems : undefined) ?? {};
  const error = (k: string) => problemText(tc, (touched[k] ? local[k] : null) ?? server[k]);
  const blur = (k: string) => setTouched((s) => ({ ...s, [k]: true }));

  // A problem the server found sends the admin back to the step holding that field.
  useEffect(() => {
    const first = Object.keys(server).find((k) => k in STEP_OF);
    if (first !== undefined) setStep(STEP_OF[first]);
  }, [result]);

  const stepFields = [
    ["fullName", "username", "email", "password", "passwordConfirm"],
    ["group", "household"],
    [],
    [],
  ];
  const next = () => {
    const fields = stepFields[step];
    setTouched((s) => ({ ...s, ...Object.fromEntries(fields.map((f) => [f, true])) }));
    if (fields.some((f) => local[f])) return;
    setStep((s) => Math.min(s + 1, 3));
  };
  const finish = () => {
    const bad = Object.keys(local).find((k) => local[k]);
    if (bad) {
      setTouched(Object.fromEntries(Object.keys(local).map((k) => [k, true])));
      setStep(STEP_OF[bad] ?? 0);
      return;
    }
    const fd = new FormData();
    for (const [k, val] of Object.entries(v)) fd.set(k, typeof val === "boolean" ? String(val) : val);
    void submit(fd, { method: "post" });
  };
  const busy = navigation.state !== "idle";
  const languageName = LANGUAGES.find((l) => l.code === v.locale)?.name ?? v.locale;

  return (
    <PlainLayout>
      <main className="onboarding" id="main" tabIndex={-1}>
        <Paper className="onboarding__card" withBorder shadow="sm" radius="lg" p="xl" data-testid="setup">
          <Title order={1} mb={4}>
            {t("setup.title")}
          </Title>
          <Text c="dimmed" mb="lg">
            {t("setup.intro")}
          </Text>
          <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size="sm" mb="lg">
            <Stepper.Step label={t("setup.steps.account")} />
            <Stepper.Step label={t("setup.steps.group")} />
            <Stepper.Step label={t("setup.steps.language")} />
            <Stepper.Step label={t("setup.steps.review")} />
          </Stepper>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (step < 3) next();
              else finish();
            }}
          >
            {step === 0 ? (
              <Stack gap="sm" data-testid="setup-step-account">
                <TextInput
                  id="fullName"
                  label={t("fields.fullName")}
                  required
                  autoComplete="name"
                  value={v.fullName}
                  onChange={(e) => set("fullName", e.currentTarget.value)}
                  onBlur={() => blur("fullName")}
                  error={error("fullName")}
                />
                <TextInput
                  id="username"
                  label={t("fields.username")}
                  required
                  autoComplete="username"
                  value={v.username}
                  onChange={(e) => set("username", e.currentTarget.value)}
                  onBlur={() => blur("username")}
                  error={error("username")}
                />
                <TextInput
                  id="email"
                  type="email"
                  label={t("fields.email")}
                  required
                  autoComplete="email"
                  value={v.email}
                  onChange={(e) => set("email", e.currentTarget.value)}
                  onBlur={() => blur("email")}
                  error={error("email")}
                />
                <PasswordFields
                  password={v.password}
                  confirm={v.passwordConfirm}
                  onPassword={(x) => set("password", x)}
                  onConfirm={(x) => set("passwordConfirm", x)}
                  onBlur={blur}
                  passwordError={error("password")}
                  confirmError={error("passwordConfirm")}
                />
              </Stack>
            ) : null}
            {step === 1 ? (
              <Stack gap="sm" data-testid="setup-step-group">
                <Text size="sm" c="dimmed">
                  {t("setup.groupHelp")}
                </Text>
                <TextInput
                  id="group"
                  label={t("fields.group")}
                  required
                  value={v.group}
                  onChange={(e) => set("group", e.currentTarget.value)}
                  onBlur={() => blur("group")}
                  error={error("group")}
                />
                <TextInput
                  id="household"
                  label={t("fields.household")}
                  required
                  value={v.household}
                  onChange={(e) => set("household", e.currentTarget.value)}
                  onBlur={() => blur("household")}
                  error={error("household")}
                />
              </Stack>
            ) : null}
            {step === 2 ? (
              <Stack gap="sm" data-testid="setup-step-language">
                <Select
                  id="locale"
                  label={t("fields.language")}
                  data={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))}
                  value={v.locale}
                  allowDeselect={false}
                  onChange={(x) => x && set("locale", x)}
                />
                <Checkbox
                  id="seedData"
                  label={t("setup.seed")}
                  description={
                    current.foods > 0
                      ? t("setup.seedHave", {
                          foods: current.foods,
                          units: current.units,
                          labels: current.labels,
                        })
                      : t("setup.seedHelp")
                  }
                  checked={v.seedData}
                  disabled={current.foods > 0}
                  onChange={(e) => set("seedData", e.currentTarget.checked)}
                />
              </Stack>
            ) : null}
            {step === 3 ? (
              <Stack gap="sm" data-testid="setup-step-review">
                <Table>
                  <Table.Tbody>
                    {(
                      [
                        [t("fields.fullName"), v.fullName],
                        [t("fields.username"), v.username],
                        [t("fields.email"), v.email],
                        [t("fields.group"), v.group],
                        [t("fields.household"), v.household],
                        [t("fields.language"), languageName],
                        [
                          t("setup.seed"),
                          current.foods > 0
                            ? t("setup.seedKept")
                            : v.seedData
                              ? tc("actions.yes")
                              : tc("actions.no"),
                        ],
                      ] as const
                    ).map(([k, val]) => (
                      <Table.Tr key={k}>
                        <Table.Th scope="row" fw={500}>
                          {k}
                        </Table.Th>
                        <Table.Td>{val}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {result && !result.ok && !result.problems ? (
                  <Alert color="error" variant="light" role="alert">
                    {result.toast?.message}
                  </Alert>
                ) : null}
              </Stack>
            ) : null}
            <Group justify="space-between" mt="xl">
              <Button
                variant="default"
                type="button"
                disabled={step === 0}
                onClick={() => setStep((s) => Math.max(0, s - 1))}
              >
                {tc("actions.back")}
              </Button>
              <Button type="submit" loading={busy} data-testid={step < 3 ? "setup-next" : "setup-finish"}>
                {step < 3 ? tc("actions.next") : t("setup.finish")}
              </Button>
            </Group>
          </form>
        </Paper>
      </main>
    </PlainLayout>
  );
}
