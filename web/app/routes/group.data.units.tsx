/**
 * /group/data/units (spec §2 data management): the group's units with search, create, edit (plural
 * forms, abbreviations, fractions), delete, merge and seeding. Guard: canOrganize (spec §6).
 */
import { useState } from "react";
import { useLoaderData, type MetaFunction } from "react-router";
import { Button, Group, Stack, Switch, Table, Text, TextInput, Textarea } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { SearchBox } from "../components/settings/SearchBox.js";
import { SeedButton } from "../components/settings/SeedDialog.js";
import { MergeButton } from "../components/settings/MergeDialog.js";
import {
  editedRecord,
  PlainRowActions,
  RecordEditor,
  RecordTableHead,
  useRecordDialogs,
} from "../components/settings/RecordTable.js";
import { PlusIcon } from "../components/shell/ShellIcons.js";
import { Pagination } from "../components/Pagination.js";
import { metaT, useT } from "../lib/i18n.js";
import { serverT } from "../lib/i18n.server.js";
import { settingsViewer } from "../lib/settings.server.js";
import { pageOf, vocabularyAction } from "../lib/data-management.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "data")("nav.units")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canOrganize: true } as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const url = new URL(args.request.url);
  const s = args.context.larder.foodsUnits;
  const all = s.list(actor, "units");
  const page = pageOf(s.list(actor, "units", url.searchParams.get("q") ?? ""), url);
  return {
    shell,
    ...page,
    units: page.items.map((u) => ({
      id: u.id,
      name: u.name,
      pluralName: u.pluralName ?? "",
      abbreviation: u.abbreviation ?? "",
      pluralAbbreviation: u.pluralAbbreviation ?? "",
      useAbbreviation: u.useAbbreviation === true,
      fraction: u.fraction !== false,
      description: u.description ?? "",
    })),
    names: all.map((u) => ({ id: u.id, name: u.name })),
  };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  return vocabularyAction(
    args.context,
    actor,
    "units",
    await args.request.formData(),
    serverT(args.request, "data"),
  );
}

type Unit = Awaited<ReturnType<typeof loader>>["units"][number];

function UnitDialog({ unit, onClose }: { unit: Unit | "new" | null; onClose: () => void }) {
  const t = useT("data");
  const editing = editedRecord(unit);
  const [v, setV] = useState({
    name: editing?.name ?? "",
    pluralName: editing?.pluralName ?? "",
    abbreviation: editing?.abbreviation ?? "",
    pluralAbbreviation: editing?.pluralAbbreviation ?? "",
    description: editing?.description ?? "",
    useAbbreviation: editing?.useAbbreviation ?? false,
    fraction: editing?.fraction ?? true,
  });
  const text = (k: keyof typeof v) => ({
    value: v[k] as string,
    onChange: (e: { currentTarget: { value: string } }) => setV({ ...v, [k]: e.currentTarget.value }),
  });
  return (
    <RecordEditor
      record={unit}
      onClose={onClose}
      title={editing ? t("unit.edit") : t("unit.create")}
      canSubmit={v.name.trim() !== ""}
      values={() => ({
        name: v.name,
        pluralName: v.pluralName,
        abbreviation: v.abbreviation,
        pluralAbbreviation: v.pluralAbbreviation,
        description: v.description,
        useAbbreviation: v.useAbbreviation ? "on" : undefined,
        fraction: v.fraction ? "on" : undefined,
      })}
      testId="unit-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("fields.name")}
          required
          data-autofocus
          data-testid="unit-name"
          {...text("name")}
        />
        <TextInput label={t("fields.pluralName")} data-testid="unit-plural" {...text("pluralName")} />
        <Group grow gap="sm" wrap="wrap">
          <TextInput
            label={t("fields.abbreviation")}
            data-testid="unit-abbreviation"
            {...text("abbreviation")}
          />
          <TextInput label={t("fields.pluralAbbreviation")} {...text("pluralAbbreviation")} />
        </Group>
        <Textarea label={t("fields.description")} autosize minRows={2} {...text("description")} />
        <Switch
          label={t("fields.useAbbreviation")}
          checked={v.useAbbreviation}
          onChange={(e) => setV({ ...v, useAbbreviation: e.currentTarget.checked })}
          data-testid="unit-use-abbreviation"
        />
        <Switch
          label={t("fields.fraction")}
          description={t("unit.fractionHelp")}
          checked={v.fraction}
          onChange={(e) => setV({ ...v, fraction: e.currentTarget.checked })}
          data-testid="unit-fraction"
        />
      </Stack>
    </RecordEditor>
  );
}

export default function Units() {
  const { shell, units, names, page, totalPages, total } = useLoaderData<typeof loader>();
  const t = useT("data");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Unit>((r) => r.name);
  const yes = tc("actions.yes");
  const no = tc("actions.no");
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="data"
        title={t("nav.units")}
        intro={t("unit.intro")}
        testId="units-page"
        toolbar={
          <>
            <SearchBox label={t("unit.search")} />
            <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
              {tc("actions.create")}
            </Button>
            <MergeButton kind="units" items={names} />
            <SeedButton kind="units" />
          </>
        }
      >
        <Text size="sm" c="dimmed" aria-live="polite">
          {t("count.units", { count: total })}
        </Text>
        {units.length === 0 ? (
          <Text>{t("unit.none")}</Text>
        ) : (
          <Table className="settings__table" striped highlightOnHover data-testid="units-table">
            <RecordTableHead
              headers={[
                { label: t("fields.name") },
                { label: t("fields.pluralName"), className: "settings__wide" },
                { label: t("fields.abbreviation") },
                { label: t("fields.useAbbreviation"), className: "settings__wide" },
                { label: t("fields.fraction"), className: "settings__wide" },
              ]}
            />
            <Table.Tbody>
              {units.map((u) => (
                <Table.Tr key={u.id} data-testid={`unit-row-${u.name}`}>
                  <Table.Td>
                    <span className="settings__name">{u.name}</span>
                  </Table.Td>
                  <Table.Td className="settings__wide">{u.pluralName}</Table.Td>
                  <Table.Td>
                    {u.abbreviation}
                    {u.pluralAbbreviation ? ` / ${u.pluralAbbreviation}` : ""}
                  </Table.Td>
                  <Table.Td className="settings__wide">{u.useAbbreviation ? yes : no}</Table.Td>
                  <Table.Td className="settings__wide">{u.fraction ? yes : no}</Table.Td>
                  <Table.Td>
                    <PlainRowActions
                      editLabel={t("unit.editNamed", { name: u.name })}
                      deleteLabel={t("unit.deleteNamed", { name: u.name })}
                      onEdit={() => dialogs.edit(u)}
                      onDelete={() => dialogs.askDelete(u)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pagination page={page} totalPages={totalPages} />
      </SettingsFrame>
      <UnitDialog key={dialogs.editorKey} unit={dialogs.editing} onClose={dialogs.closeEditor} />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
