/**
 * /g/{groupSlug}/data/migrations: import from another recipe app (mealie-api-notes §12). Pick the app,
 * upload its export, and read the report: each recipe imported, skipped (already here) or failed, and
 * why. A long migration goes on in the background; its report can be reloaded here. The same path as
 * POST /api/groups/migrations, through `larder.migrations`. An import cannot be taken back, so the page
 * first asks, saying what comes from which file into which group and household.
 */
import { rm, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { LinksFunction, MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "react-router";
import { Alert, Badge, Button, Checkbox, Group, Paper, Select, Stack, Text, Title } from "@mantine/core";
import { useRef, useState, type FormEvent } from "react";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { metaT, useT } from "../lib/i18n.js";
import { requireGroupMember, type UserActor } from "../lib/session.server.js";
import { MultipartLimitError, parseMultipartForm } from "../lib/multipart.server.js";
import { problemText } from "../lib/use-intent.js";
import { APP_NAMES, migrationAppOf } from "../lib/migration-apps.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import type { AppLoadContext } from "react-router";
import organizeStyles from "../styles/organize.css?url";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(organizeStyles)];

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "create")("migrate.title")} | ${metaT(matches)("appName")}` },
];

interface ReportView {
  id: string;
  name: string;
  status: string;
  entries: { success: boolean; message: string; exception: string }[];
}

async function reportView(context: AppLoadContext, actor: UserActor, id: string): Promise<ReportView | null> {
  try {
    const r = await context.larder.reports.get(actor, id);
    if (r.category !== "migration") return null;
    return {
      id: r.id,
      name: r.name,
      status: r.status,
      entries: r.entries.map((e) => ({ success: e.success, message: e.message, exception: e.exception })),
    };
  } catch {
    return null;
  }
}

export async function loader({ request, context, params }: LoaderArgs) {
  const { actor, groupSlug, groupName } = await requireGroupMember(request, context, params.groupSlug);
  const id = new URL(request.url).searchParams.get("report");
  return {
    groupSlug,
    groupName,
    householdName: context.larder.directory.householdById(actor.user.householdId)?.household.name ?? "",
    types: context.larder.migrations.types(),
    report: id ? await reportView(context, actor, id) : null,
  };
}

export async function action({ request, context, params }: ActionArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const { larder } = context;
  let form: FormData;
  try {
    form = await parseMultipartForm(request, { maxFileBytes: larder.config.maxMigrationBytes, maxFiles: 1 });
  } catch (e) {
    if (e instanceof MultipartLimitError) return { error: "tooLarge" as const, message: null, report: null };
    throw e;
  }
  const type = String(form.get("type") ?? "");
  const file = form.get("archive");
  if (!type || !file || typeof file === "string" || file.size === 0)
    return { error: "required" as const, message: null, report: null };
  await mkdir(larder.folder.tmpDir, { recursive: true });
  const path = join(larder.folder.tmpDir, `migration-${crypto.randomUUID()}.upload`);
  await writeFile(path, Buffer.from(await file.arrayBuffer()), { mode: 0o600 });
  const cleanup = () => rm(path, { force: true });
  try {
    const { report } = await larder.migrations.start(actor, {
      type,
      path,
      addMigrationTag: form.get("addMigrationTag") === "on",
      foregroundMs: 15_000,
      onFinished: cleanup,
    });
    return { error: null, message: null, report: await reportView(context, actor, report.id) };
  } catch (e) {
    await cleanup();
    const status = (e as { status?: number }).status;
    if (status === undefined || status >= 500) throw e;
    return { error: "other" as const, message: problemText(e), report: null };
  }
}

function Report({ report, groupSlug }: { report: ReportView; groupSlug: string }) {
  const t = useT("create");
  const ok = report.entries.filter((e) => e.success).length;
  const failed = report.entries.length - ok;
  const app = migrationAppOf(report.name);
  return (
    <Paper withBorder radius="md" p="lg" data-testid="migration-report">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3">
            {app ? t("migrate.reportTitle", { app }) : report.name}
          </Title>
          <Badge
            color={
              report.status === "success" ? "green" : report.status === "in-progress" ? "blue" : "orange"
            }
            data-testid="migration-status"
          >
            {t(`migrate.status.${report.status}`, { defaultValue: report.status })}
          </Badge>
        </Group>
        <Text data-testid="migration-summary">{t("migrate.summary", { ok, failed })}</Text>
        {report.status === "in-progress" ? (
          <Group>
            <Button
              component={Link}
              to={`?report=${encodeURIComponent(report.id)}`}
              variant="default"
              size="xs"
            >
              {t("migrate.refresh")}
            </Button>
          </Group>
        ) : null}
        <ul className="import-status">
          {report.entries.map((e, i) => (
            <li
              key={i}
              data-testid="migration-entry"
              data-success={e.success}
              data-warned={e.success && !!e.exception}
            >
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge
                  variant="light"
                  color={e.success ? (e.exception ? "yellow" : "green") : "red"}
                  style={{ flex: "none" }}
                >
                  {e.success ? (e.exception ? t("migrate.warned") : t("migrate.ok")) : t("migrate.failed")}
                </Badge>
                <div className="grow">
                  <Text size="sm" className="import-status__url">
                    {e.message}
                  </Text>
                  {e.exception ? (
                    // Something left out of a recipe brought in (its picture), or why one failed.
                    <Text size="xs" c={e.success ? "orange.9" : "red"}>
                      {e.exception}
                    </Text>
                  ) : null}
                </div>
              </Group>
            </li>
          ))}
        </ul>
        <Group>
          <Link to={`/g/${encodeURIComponent(groupSlug)}`}>{t("migrate.toRecipes")}</Link>
        </Group>
      </Stack>
    </Paper>
  );
}

export default function Migrations() {
  const { groupSlug, groupName, householdName, types, report: loaded } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const importButton = useRef<HTMLButtonElement>(null);
  // The chosen file's name while the confirmation is open.
  const [confirming, setConfirming] = useState<string | null>(null);
  const t = useT("create");
  const tc = useT("common");
  const [type, setType] = useState<string | null>(
    types.includes("nextcloud") ? "nextcloud" : (types[0] ?? null),
  );
  const report = result?.report ?? loaded;
  const error =
    result?.error === "required"
      ? tc("validation.required")
      : result?.error === "tooLarge"
        ? t("zip.tooLarge")
        : result?.error === "other"
          ? (result.message ?? t("migrate.failedAll"))
          : null;
  const app = type ? (APP_NAMES[type] ?? type) : "";

  const ask = (e: FormEvent<HTMLFormElement>) => {
    const file = e.currentTarget.querySelector<HTMLInputElement>("input[type=file]")?.files?.[0];
    // Without a file the server says what is missing, as before.
    if (!file) return;
    e.preventDefault();
    // Cancelling gives focus back to the button, even when Enter in a field submitted the form.
    importButton.current?.focus();
    setConfirming(file.name);
  };

  return (
    <div className="page">
      <Stack maw={760} mx="auto" gap="lg">
        <Paper withBorder radius="md" p="lg">
          <Form ref={form} method="post" encType="multipart/form-data" onSubmit={ask}>
            <Stack gap="md">
              <Title order={1} size="h2">
                {t("migrate.title")}
              </Title>
              <Text c="dimmed">{t("migrate.hint")}</Text>
              {error ? (
                <Alert color="red" data-testid="migration-error">
                  {error}
                </Alert>
              ) : null}
              <Select
                label={t("migrate.app")}
                data={types.map((v) => ({ value: v, label: APP_NAMES[v] ?? v }))}
                value={type}
                onChange={setType}
                allowDeselect={false}
                data-testid="migration-type"
              />
              {type === "mealie_backup" ? (
                <Alert color="blue" data-testid="migration-people">
                  {t("migrate.mealieBackupPeople")}
                </Alert>
              ) : null}
              <input type="hidden" name="type" value={type ?? ""} />
              <label>
                <Text size="sm" fw={500}>
                  {t("migrate.file")}
                </Text>
                <input type="file" name="archive" required data-testid="migration-file" />
              </label>
              <Checkbox name="addMigrationTag" label={t("migrate.tag")} data-testid="migration-tag" />
              <Group justify="flex-end">
                <Button
                  ref={importButton}
                  type="submit"
                  loading={navigation.state !== "idle"}
                  data-testid="migration-submit"
                >
                  {t("migrate.submit")}
                </Button>
              </Group>
            </Stack>
          </Form>
        </Paper>
        {report ? <Report report={report} groupSlug={groupSlug} /> : null}
      </Stack>
      <AppDialog
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t("migrate.confirmTitle", { app })}
        submitLabel={t("migrate.submit")}
        focusCancel
        onSubmit={() => {
          if (form.current) void submit(form.current);
        }}
        data-testid="migration-confirm"
      >
        <Text>
          {t(type === "mealie_backup" ? "migrate.confirmMealie" : "migrate.confirm", {
            file: confirming ?? "",
            app,
            group: groupName,
            household: householdName,
          })}
        </Text>
      </AppDialog>
    </div>
  );
}
