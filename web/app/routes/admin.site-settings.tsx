/**
 * /admin/site-settings (spec §2, §7 Admin about/statistics/check, e-mail): what this server is (app
 * info and statistics), whether its configuration is complete (e-mail, LDAP, OIDC, BASE_URL), a test
 * e-mail, and the theme colours it serves (set with THEME_* variables, so shown, not edited).
 */
import { useState } from "react";
import { data, useLoaderData, type MetaFunction } from "react-router";
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useFormAction } from "../components/admin/use-form-action.js";
import { problemText } from "../components/profile/ProblemText.js";
import { appInfo, themeOf } from "../lib/app-info.server.js";
import { themeKeyParts } from "../lib/theme.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { check, rules } from "../lib/validation.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("site.title")} | ${metaT(matches)("appName")}` },
];

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const c = larder.config;
  const group = larder.directory.defaultGroup()?.group ?? null;
  return {
    info: {
      ...appInfo(larder),
      production: c.production,
      baseUrl: c.baseUrl,
      defaultGroup: group?.name ?? "",
      tokenTime: c.tokenTimeHours,
      demoResetMinutes: c.demoResetMinutes,
    },
    statistics: larder.siteReport.statistics(actor),
    checks: larder.siteReport.check(actor),
    theme: themeOf(larder),
  };
}

export async function action(args: ActionArgs) {
  await requireGuards(args, { admin: true });
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  if (field(form, "intent") !== "emailTest") throw data("Unknown intent", { status: 400 });
  const email = field(form, "email").trim();
  const problem = check(email, rules.required, rules.email);
  if (problem) return { intent: "emailTest", ok: false, problems: { email: problem } };
  const result = await attempt("emailTest", how, () => args.context.larder.email.sendTest(email));
  if (!result.ok) return result;
  return result.value?.success
    ? { intent: "emailTest", ok: true, toast: { type: "success" as const, message: t("site.emailSent") } }
    : {
        intent: "emailTest",
        ok: false,
        toast: {
          type: "error" as const,
          message: t("site.emailFailed", { error: result.value?.error ?? "" }),
        },
      };
}

function Check({ ok, label, hint }: { ok: boolean; label: string; hint: string }) {
  const t = useT("admin");
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="config-check" data-ok={ok}>
      <div>
        <Text fw={600} size="sm">
          {label}
        </Text>
        {!ok ? (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        ) : null}
      </div>
      <Badge color={ok ? "success" : "gray"} variant="light" style={{ flexShrink: 0 }}>
        {ok ? t("site.ready") : t("site.notSet")}
      </Badge>
    </Group>
  );
}

export default function SiteSettings() {
  const { info, statistics, checks, theme } = useLoaderData<typeof loader>();
  const t = useT("admin");
  const tc = useT("common");
  const [email, setEmail] = useState("");
  const test = useFormAction();
  const yes = (v: boolean) => (v ? tc("actions.yes") : tc("actions.no"));
  const rows: [string, string][] = [
    [t("site.version"), `${info.version} (Larder ${info.larderVersion})`],
    [t("site.production"), yes(info.production)],
    [t("site.demo"), yes(info.demoStatus)],
    [t("site.baseUrl"), info.baseUrl],
    [t("site.defaultGroup"), info.defaultGroup],
    [t("site.allowSignup"), yes(info.allowSignup)],
    [t("site.passwordLogin"), yes(info.allowPasswordLogin)],
    [t("site.oidc"), info.enableOidc ? info.oidcProviderName : tc("actions.no")],
    [t("site.imageAi"), yes(info.enableOpenaiImageServices)],
    [t("site.tokenTime"), t("site.hours", { count: info.tokenTime })],
  ];
  const emailProblem = test.result && !test.result.ok ? test.result.problems?.email : undefined;
  return (
    <>
      <div className="page__header">
        <Title order={1} className="page__title">
          {t("site.title")}
        </Title>
      </div>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            {t("site.appInfo")}
          </Title>
          <Table data-testid="app-info">
            <Table.Tbody>
              {rows.map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th scope="row" fw={500}>
                    {k}
                  </Table.Th>
                  <Table.Td style={{ wordBreak: "break-all" }}>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Stack gap="lg">
          <Paper withBorder radius="md" p="lg">
            <Title order={2} size="h4" mb="sm">
              {t("site.statistics")}
            </Title>
            <SimpleGrid cols={3} spacing="sm" data-testid="statistics">
              {(
                [
                  ["recipes", statistics.totalRecipes],
                  ["users", statistics.totalUsers],
                  ["groups", statistics.totalGroups],
                  ["households", statistics.totalHouseholds],
                  ["uncategorized", statistics.uncategorizedRecipes],
                  ["untagged", statistics.untaggedRecipes],
                ] as const
              ).map(([k, v]) => (
                <div key={k}>
                  <Text size="xl" fw={700}>
                    {v}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`site.stats.${k}`)}
                  </Text>
                </div>
              ))}
            </SimpleGrid>
          </Paper>
          <Paper withBorder radius="md" p="lg">
            <Title order={2} size="h4" mb="sm">
              {t("site.checks")}
            </Title>
            <Stack gap="sm">
              <Check ok={checks.emailReady} label={t("site.check.email")} hint={t("site.check.emailHint")} />
              <Check ok={checks.ldapReady} label={t("site.check.ldap")} hint={t("site.check.ldapHint")} />
              <Check ok={checks.oidcReady} label={t("site.check.oidc")} hint={t("site.check.oidcHint")} />
              <Check
                ok={checks.baseUrlSet}
                label={t("site.check.baseUrl")}
                hint={t("site.check.baseUrlHint")}
              />
            </Stack>
          </Paper>
        </Stack>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            {t("site.emailTest")}
          </Title>
          <test.fetcher.Form method="post" noValidate>
            <input type="hidden" name="intent" value="emailTest" />
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {checks.emailReady ? t("site.emailTestHelp") : t("site.check.emailHint")}
              </Text>
              <TextInput
                name="email"
                type="email"
                label={t("site.emailTo")}
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={problemText(tc, emailProblem)}
                data-testid="email-test-to"
              />
              <div>
                <Button type="submit" loading={test.busy} disabled={!checks.emailReady}>
                  {t("site.sendTest")}
                </Button>
              </div>
            </Stack>
          </test.fetcher.Form>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            {t("site.theme")}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t("site.themeHelp")}
          </Text>
          <SimpleGrid cols={2} spacing="xs" data-testid="theme-colors">
            {Object.entries(theme).map(([k, v]) => {
              const parts = themeKeyParts(k);
              return (
                <Group key={k} gap="xs" wrap="nowrap">
                  <span className="admin-swatch" style={{ background: v }} aria-hidden="true" />
                  <Text size="sm">
                    {parts
                      ? t("site.themeColor", {
                          color: t(`site.themeColors.${parts.color}`),
                          mode: t(`site.themeModes.${parts.mode}`),
                        })
                      : k}{" "}
                    <Text span c="dimmed" ff="monospace" size="xs" dir="ltr">
                      {parts ? `${parts.variable} ${v}` : v}
                    </Text>
                  </Text>
                </Group>
              );
            })}
          </SimpleGrid>
        </Paper>
      </SimpleGrid>
    </>
  );
}
