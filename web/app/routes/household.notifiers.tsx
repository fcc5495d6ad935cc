/**
 * /household/notifiers (spec §2, §7): the household's notifiers — a name, an Apprise-style URL (kept
 * server-side, never shown again), enabled, and which events they are told about — with create, edit,
 * delete and "test". Guard: canManageHousehold.
 */
import { useState } from "react";
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Button, Checkbox, Fieldset, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
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
import { field, flag, optional, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "household")("nav.notifiers")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canManageHousehold: true } as const;
/** Events a new notifier hears until told otherwise: the test and the everyday recipe and plan changes. */
const DEFAULT_ON = ["testMessage", "recipeCreated", "mealplanEntryCreated", "shoppingListCreated"];

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const env = args.context.larder.notifiers.list(actor, {
    page: "1",
    perPage: "-1",
    orderBy: "name",
    orderDirection: "asc",
  });
  const notifiers = env.items.map((n) => {
    const { id: _optionsId, ...options } = n.options;
    return { id: n.id, name: n.name, enabled: n.enabled, options: options as Record<string, boolean> };
  });
  return { shell, notifiers, events: [...args.context.larder.notifiers.optionNames()] };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  const t = serverT(args.request, "household");
  const s = args.context.larder.notifiers;
  const events = form.getAll("event").map(String);
  const options =
    events.length || form.has("events")
      ? Object.fromEntries(
          field(form, "events")
            .split(",")
            .filter(Boolean)
            .map((e) => [e, events.includes(e)]),
        )
      : null;
  const body = () => ({
    name: field(form, "name").trim(),
    appriseUrl: optional(form, "appriseUrl"),
    enabled: flag(form, "enabled"),
    options,
  });
  const intent = field(form, "intent");
  switch (intent) {
    case "create":
      return settingsWrite(args.context, intent, t("notifiers.created"), async () => {
        const made = await s.create(actor, body());
        if (options) await s.update(actor, made.id, body());
      });
    case "update":
      return settingsWrite(args.context, intent, t("notifiers.updated"), () =>
        s.update(actor, field(form, "id"), body()),
      );
    case "delete":
      return settingsWrite(args.context, intent, t("notifiers.deleted"), () =>
        s.remove(actor, field(form, "id")),
      );
    case "test":
      return settingsWrite(args.context, intent, t("notifiers.tested"), () =>
        s.test(actor, field(form, "id")),
      );
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

type Notifier = Awaited<ReturnType<typeof loader>>["notifiers"][number];

/** "recipeCreated" → ["recipe", "created"]; the others stand alone ("general"). */
function splitEvent(e: string): [string, string] {
  const m = /^(.*)(Created|Updated|Deleted)$/.exec(e);
  return m ? [m[1], m[2].toLowerCase()] : ["general", e];
}

function EventToggles({
  events,
  value,
  onChange,
}: {
  events: string[];
  value: Set<string>;
  onChange: (next: Set<string>) => void;
}) {
  const t = useT("household");
  const groups = new Map<string, string[]>();
  for (const e of events) {
    const [g] = splitEvent(e);
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {[...groups.entries()].map(([g, list]) => (
        <Fieldset key={g} legend={t(`notifiers.groups.${g}`)} variant="filled" p="sm">
          <Stack gap={6}>
            {list.map((e) => {
              const [, op] = splitEvent(e);
              return (
                <Checkbox
                  key={e}
                  label={g === "general" ? t(`notifiers.general.${e}`) : t(`notifiers.ops.${op}`)}
                  checked={value.has(e)}
                  data-testid={`event-${e}`}
                  onChange={(ev) => {
                    const next = new Set(value);
                    if (ev.currentTarget.checked) next.add(e);
                    else next.delete(e);
                    onChange(next);
                  }}
                />
              );
            })}
          </Stack>
        </Fieldset>
      ))}
    </SimpleGrid>
  );
}

function NotifierDialog({
  item,
  events,
  onClose,
}: {
  item: Notifier | "new" | null;
  events: string[];
  onClose: () => void;
}) {
  const t = useT("household");
  const editing = editedRecord(item);
  const [name, setName] = useState(editing?.name ?? "");
  const [url, setUrl] = useState("");
  const [enabled, setEnabled] = useState(editing?.enabled ?? true);
  const [on, setOn] = useState<Set<string>>(
    new Set(
      editing
        ? Object.entries(editing.options)
            .filter(([, v]) => v)
            .map(([k]) => k)
        : DEFAULT_ON,
    ),
  );
  return (
    <RecordEditor
      record={item}
      onClose={onClose}
      title={editing ? t("notifiers.edit") : t("notifiers.create")}
      canSubmit={name.trim() !== "" && (editing !== null || url.trim() !== "")}
      maxWidth={720}
      values={() => ({
        name,
        appriseUrl: url,
        enabled,
        events: events.join(","),
        event: [...on],
      })}
      testId="notifier-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("notifiers.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
          data-testid="notifier-name"
        />
        <TextInput
          label={t("notifiers.url")}
          description={editing ? t("notifiers.urlKept") : t("notifiers.urlHelp")}
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required={!editing}
          placeholder="ntfys://ntfy.example/topic"
          autoComplete="off"
          data-testid="notifier-url"
        />
        <Switch
          label={t("notifiers.enabled")}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Text fw={500} size="sm">
          {t("notifiers.events")}
        </Text>
        <EventToggles events={events} value={on} onChange={setOn} />
      </Stack>
    </RecordEditor>
  );
}

export default function Notifiers() {
  const { shell, notifiers, events } = useLoaderData<typeof loader>();
  const t = useT("household");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Notifier>((n) => n.name);
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="household"
        title={t("nav.notifiers")}
        intro={t("notifiers.intro")}
        testId="notifiers-page"
        toolbar={
          <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
            {tc("actions.create")}
          </Button>
        }
      >
        {notifiers.length === 0 ? (
          <Text>{t("notifiers.none")}</Text>
        ) : (
          <RecordTable
            rows={notifiers}
            dialogs={dialogs}
            testId="notifiers-table"
            rowTestId={(n) => `notifier-row-${n.name}`}
            editLabel={(n) => t("notifiers.editNamed", { name: n.name })}
            deleteLabel={(n) => t("notifiers.deleteNamed", { name: n.name })}
            extraActions={(n) => <TestButton id={n.id} />}
            columns={[
              { header: t("notifiers.name"), cell: (n) => <NameCell name={n.name} enabled={n.enabled} /> },
              {
                header: t("notifiers.events"),
                className: "settings__wide",
                cell: (n) =>
                  t("notifiers.eventCount", { count: Object.values(n.options).filter(Boolean).length }),
              },
            ]}
          />
        )}
      </SettingsFrame>
      <NotifierDialog
        key={dialogs.editorKey}
        item={dialogs.editing}
        events={events}
        onClose={dialogs.closeEditor}
      />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
