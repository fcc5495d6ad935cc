/**
 * /household/webhooks (spec §2, §7): the household's meal-plan webhooks — name, address, time of day
 * (UTC, as stored), enabled — with create, edit, delete and "test" (today's digest sent now, the
 * answer reported). Guard: canManageHousehold.
 */
import { useState } from "react";
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Button, Stack, Switch, Text, TextInput } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import {
  editedRecord,
  NameCell,
  RecordEditor,
  RecordTable,
  TestButton,
  useRecordDialogs,
} from "../components/settings/RecordTable.js";
import { PlusIcon } from "../components/shell/ShellIcons.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { field, flag, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "household")("nav.webhooks")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canManageHousehold: true } as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const hooks = args.context.larder.webhooks
    .all(actor)
    .map((w) => ({
      id: w.id,
      name: w.name,
      url: w.url,
      enabled: w.enabled,
      time: w.scheduledTime.slice(0, 5),
    }))
    .sort((a, b) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name));
  return { shell, hooks };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  const t = serverT(args.request, "household");
  const s = args.context.larder.webhooks;
  const body = () => ({
    name: field(form, "name").trim(),
    url: field(form, "url").trim(),
    enabled: flag(form, "enabled"),
    scheduledTime: field(form, "time"),
  });
  const intent = field(form, "intent");
  switch (intent) {
    case "create":
      return settingsWrite(args.context, intent, t("webhooks.created"), () => s.create(actor, body()));
    case "update":
      return settingsWrite(args.context, intent, t("webhooks.updated"), () =>
        s.update(actor, field(form, "id"), body()),
      );
    case "delete":
      return settingsWrite(args.context, intent, t("webhooks.deleted"), () =>
        s.remove(actor, field(form, "id")),
      );
    case "test":
      return settingsWrite(args.context, intent, t("webhooks.tested"), () =>
        s.test(actor, field(form, "id")),
      );
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

type Hook = Awaited<ReturnType<typeof loader>>["hooks"][number];

function HookDialog({ hook, onClose }: { hook: Hook | "new" | null; onClose: () => void }) {
  const t = useT("household");
  const editing = editedRecord(hook);
  const [name, setName] = useState(editing?.name ?? "");
  const [url, setUrl] = useState(editing?.url ?? "");
  const [time, setTime] = useState(editing?.time ?? "08:00");
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  return (
    <RecordEditor
      record={hook}
      onClose={onClose}
      title={editing ? t("webhooks.edit") : t("webhooks.create")}
      canSubmit={name.trim() !== "" && url.trim() !== "" && /^\d{2}:\d{2}$/.test(time)}
      values={() => ({
        name,
        url,
        time,
        enabled: enabled,
      })}
      testId="webhook-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("webhooks.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
          data-testid="webhook-name"
        />
        <TextInput
          label={t("webhooks.url")}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required
          placeholder="https://"
          data-testid="webhook-url"
        />
        <TextInput
          label={t("webhooks.time")}
          description={t("webhooks.timeHelp")}
          type="time"
          value={time}
          onChange={(e) => setTime(e.currentTarget.value.slice(0, 5))}
          required
          maw={200}
          data-testid="webhook-time"
        />
        <Switch
          label={t("webhooks.enabled")}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
          data-testid="webhook-enabled"
        />
      </Stack>
    </RecordEditor>
  );
}

export default function Webhooks() {
  const { shell, hooks } = useLoaderData<typeof loader>();
  const t = useT("household");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Hook>((h) => h.name);
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="household"
        title={t("nav.webhooks")}
        intro={t("webhooks.intro")}
        testId="webhooks-page"
        toolbar={
          <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
            {tc("actions.create")}
          </Button>
        }
      >
        {hooks.length === 0 ? (
          <Text>{t("webhooks.none")}</Text>
        ) : (
          <RecordTable
            rows={hooks}
            dialogs={dialogs}
            testId="webhooks-table"
            rowTestId={(h) => `webhook-row-${h.name}`}
            editLabel={(h) => t("webhooks.editNamed", { name: h.name })}
            deleteLabel={(h) => t("webhooks.deleteNamed", { name: h.name })}
            extraActions={(h) => <TestButton id={h.id} />}
            columns={[
              { header: t("webhooks.name"), cell: (h) => <NameCell name={h.name} enabled={h.enabled} /> },
              { header: t("webhooks.timeShort"), cell: (h) => h.time },
              {
                header: t("webhooks.url"),
                className: "settings__wide",
                cell: (h) => (
                  <Text size="sm" ff="monospace">
                    {h.url}
                  </Text>
                ),
              },
            ]}
          />
        )}
      </SettingsFrame>
      <HookDialog key={dialogs.editorKey} hook={dialogs.editing} onClose={dialogs.closeEditor} />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
