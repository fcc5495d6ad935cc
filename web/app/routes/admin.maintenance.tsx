/**
 * /admin/maintenance (spec §2, §7 Admin): the data folder's size and what could be cleaned, the size
 * of each storage area, the last N log lines (N chosen by the admin), and the clean actions (temp
 * files, stale image folders, orphan recipe folders, logs), each confirmed first.
 */
import { useState } from "react";
import { Form, data, useLoaderData, useNavigation, type MetaFunction } from "react-router";
import { Button, Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { useFormAction } from "../components/admin/use-form-action.js";
import { attempt, field } from "../lib/admin.server.js";
import { requireGuards } from "../lib/guards.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { useFormat } from "../lib/use-format.js";
import { serverT } from "../lib/i18n.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "admin")("maintenance.title")} | ${metaT(matches)("appName")}` },
];

const DEFAULT_LINES = 100;
const MAX_LINES = 10_000;

export async function loader(args: LoaderArgs) {
  const actor = await requireGuards(args, { admin: true });
  const { larder } = args.context;
  const asked = Number(new URL(args.request.url).searchParams.get("lines") ?? DEFAULT_LINES);
  const lines = Number.isFinite(asked) ? Math.min(Math.max(1, Math.floor(asked)), MAX_LINES) : DEFAULT_LINES;
  const [summary, storage, logs] = await Promise.all([
    larder.maintenance.summary(actor),
    larder.maintenance.storage(actor),
    larder.maintenance.logs(actor, lines),
  ]);
  return { summary, storage, lines, logs: logs.logs };
}

const CLEANS = ["temp", "images", "recipeFolders", "logs"] as const;
type Clean = (typeof CLEANS)[number];

export async function action(args: ActionArgs) {
  const actor = await requireGuards(args, { admin: true });
  const m = args.context.larder.maintenance;
  const form = await args.request.formData();
  const t = serverT(args.request, "admin");
  const how = { t, log: args.context.larder.log };
  const intent = field(form, "intent");
  const run: Record<Clean, () => Promise<{ message: string }>> = {
    temp: () => m.cleanTemp(actor),
    images: () => m.cleanImages(actor),
    recipeFolders: () => m.cleanRecipeFolders(actor),
    logs: () => m.cleanLogs(actor),
  };
  if (!(CLEANS as readonly string[]).includes(intent)) throw data("Unknown intent", { status: 400 });
  return attempt(intent, how, run[intent as Clean], t("maintenance.cleaned"));
}

export default function AdminMaintenance() {
  const { summary, storage, lines, logs } = useLoaderData<typeof loader>();
  const t = useT("admin");
  const f = useFormat();
  const navigation = useNavigation();
  const [confirm, setConfirm] = useState<Clean | null>(null);
  const clean = useFormAction(() => setConfirm(null));
  const sizes = [
    ["dataDir", summary.dataDirSize],
    ["groups", storage.groupsDirSize],
    ["recipes", storage.recipesDirSize],
    ["users", storage.userDirSize],
    ["backups", storage.backupsDirSize],
    ["temp", storage.tempDirSize],
  ] as const;
  return (
    <>
      <div className="page__header">
        <Title order={1} className="page__title">
          {t("maintenance.title")}
        </Title>
      </div>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t("maintenance.storage")}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" data-testid="maintenance-storage">
          {sizes.map(([k, v]) => (
            <div key={k}>
              <Text size="xs" c="dimmed">
                {t(`maintenance.sizes.${k}`)}
              </Text>
              <Text fw={600}>{f.size(v)}</Text>
            </div>
          ))}
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t("maintenance.clean")}
        </Title>
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t("maintenance.cleanable", {
              images: f.number(summary.cleanableImages),
              dirs: f.number(summary.cleanableDirs),
            })}
          </Text>
          <Group gap="sm">
            {CLEANS.map((c) => (
              <Button key={c} variant="light" onClick={() => setConfirm(c)} data-testid={`clean-${c}`}>
                {t(`maintenance.actions.${c}`)}
              </Button>
            ))}
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
          <Title order={2} size="h4">
            {t("maintenance.logs")}
          </Title>
          <Form method="get" className="admin-inline-form">
            <Group gap="xs" align="flex-end">
              <NumberInput
                name="lines"
                label={t("maintenance.lines")}
                defaultValue={lines}
                min={1}
                max={MAX_LINES}
                w={120}
                data-testid="log-lines"
              />
              <Button type="submit" variant="default" loading={navigation.state === "loading"}>
                {t("maintenance.showLogs")}
              </Button>
            </Group>
          </Form>
        </Group>
        {logs.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t("maintenance.noLogs")}
          </Text>
        ) : (
          <pre className="admin-logs" data-testid="logs" tabIndex={0}>
            {logs.join("\n")}
          </pre>
        )}
      </Paper>
      <AppDialog
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm ? t(`maintenance.actions.${confirm}`) : ""}
        submitLabel={t("common:actions.confirm")}
        keepOpen
        loading={clean.busy}
        onSubmit={() => confirm && clean.submit(confirm)}
      >
        <Text>{confirm ? t(`maintenance.confirm.${confirm}`) : ""}</Text>
      </AppDialog>
    </>
  );
}
