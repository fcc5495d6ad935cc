/**
 * /group/data/labels (spec §2 data management): the group's labels with a name and a colour (picker
 * with swatches), create, edit, delete and seeding. Guard: canOrganize (spec §6).
 */
import { useState } from "react";
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Badge, Button, ColorInput, Group, Stack, Text, TextInput } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { SeedButton } from "../components/settings/SeedDialog.js";
import {
  editedRecord,
  RecordEditor,
  RecordTable,
  useRecordDialogs,
} from "../components/settings/RecordTable.js";
import { PlusIcon } from "../components/shell/ShellIcons.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { field, settingsViewer, settingsWrite } from "../lib/settings.server.js";
import { allLabels, seedAction } from "../lib/data-management.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "data")("nav.labels")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canOrganize: true } as const;

/** Mealie's default label colour. */
const DEFAULT_COLOR = "#959595";
const SWATCHES = [
  "#e53935",
  "#fb8c00",
  "#fdd835",
  "#43a047",
  "#00897b",
  "#1e88e5",
  "#3949ab",
  "#8e24aa",
  "#6d4c41",
  "#959595",
];

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  return { shell, labels: allLabels(args.context, actor) };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  const t = serverT(args.request, "data");
  const labels = args.context.larder.labels;
  const body = () => ({
    name: field(form, "name").trim(),
    color: field(form, "color").trim() || DEFAULT_COLOR,
  });
  const intent = field(form, "intent");
  switch (intent) {
    case "create":
      return settingsWrite(args.context, intent, t("label.created"), () => labels.create(actor, body()));
    case "update":
      return settingsWrite(args.context, intent, t("label.updated"), () =>
        labels.update(actor, field(form, "id"), body()),
      );
    case "delete":
      return settingsWrite(args.context, intent, t("label.deleted"), () =>
        labels.remove(actor, field(form, "id")),
      );
    case "seed":
      return seedAction(args.context, actor, "labels", form, t);
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

type Label = Awaited<ReturnType<typeof loader>>["labels"][number];

function LabelDialog({ label, onClose }: { label: Label | "new" | null; onClose: () => void }) {
  const t = useT("data");
  const editing = editedRecord(label);
  const [name, setName] = useState(editing?.name ?? "");
  const [color, setColor] = useState(editing?.color ?? DEFAULT_COLOR);
  return (
    <RecordEditor
      record={label}
      onClose={onClose}
      title={editing ? t("label.edit") : t("label.create")}
      canSubmit={name.trim() !== ""}
      values={() => ({
        name,
        color,
      })}
      testId="label-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("fields.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
          data-testid="label-name"
        />
        <ColorInput
          label={t("fields.color")}
          value={color}
          onChange={setColor}
          format="hex"
          swatches={SWATCHES}
          swatchesPerRow={10}
          popoverProps={{ withinPortal: true }}
          data-testid="label-color"
        />
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {t("label.preview")}
          </Text>
          <Badge color={color} variant="filled" autoContrast>
            {name || t("fields.name")}
          </Badge>
        </Group>
      </Stack>
    </RecordEditor>
  );
}

export default function Labels() {
  const { shell, labels } = useLoaderData<typeof loader>();
  const t = useT("data");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Label>((l) => l.name);
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="data"
        title={t("nav.labels")}
        intro={t("label.intro")}
        testId="labels-page"
        toolbar={
          <>
            <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
              {tc("actions.create")}
            </Button>
            <SeedButton kind="labels" />
          </>
        }
      >
        {labels.length === 0 ? (
          <Text>{t("label.none")}</Text>
        ) : (
          <RecordTable
            rows={labels}
            dialogs={dialogs}
            testId="labels-table"
            rowTestId={(l) => `label-row-${l.name}`}
            editLabel={(l) => t("label.editNamed", { name: l.name })}
            deleteLabel={(l) => t("label.deleteNamed", { name: l.name })}
            highlightOnHover
            columns={[
              {
                header: t("fields.name"),
                cell: (l) => (
                  <Badge color={l.color} variant="filled" autoContrast>
                    {l.name}
                  </Badge>
                ),
              },
              {
                header: t("fields.color"),
                cell: (l) => (
                  <Group gap="xs" wrap="nowrap">
                    <span className="settings__swatch" style={{ background: l.color }} aria-hidden="true" />
                    <Text size="sm" ff="monospace" data-testid="label-color-value">
                      {l.color}
                    </Text>
                  </Group>
                ),
              },
            ]}
          />
        )}
      </SettingsFrame>
      <LabelDialog key={dialogs.editorKey} label={dialogs.editing} onClose={dialogs.closeEditor} />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
