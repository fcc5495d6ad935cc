/**
 * /group/data/foods (spec §2 data management): the group's foods with search, create, edit, delete,
 * merge, on hand (for the viewer's household), label, and seeding. Guard: canOrganize (spec §6).
 */
import { useState } from "react";
import { useLoaderData, type MetaFunction } from "react-router";
import { Button, Select, Stack, Switch, Table, Text, TextInput, Textarea } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { SearchBox } from "../components/settings/SearchBox.js";
import { SeedButton } from "../components/settings/SeedDialog.js";
import { MergeButton } from "../components/settings/MergeDialog.js";
import { LabelChip, submitForm, useOptimistic, useSettingsFetcher } from "../components/settings/common.js";
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
import { allLabels, pageOf, vocabularyAction } from "../lib/data-management.server.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "data")("nav.foods")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canOrganize: true } as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const url = new URL(args.request.url);
  const larder = args.context.larder;
  const all = larder.foodsUnits.list(actor, "foods");
  const shown = larder.foodsUnits.list(actor, "foods", url.searchParams.get("q") ?? "");
  const page = pageOf(shown, url);
  return {
    shell,
    ...page,
    foods: page.items.map((f) => ({
      id: f.id,
      name: f.name,
      pluralName: f.pluralName ?? "",
      description: f.description ?? "",
      labelId: f.labelId ?? null,
      label: f.label ? { name: f.label.name, color: f.label.color } : null,
      onHand: f.onHand === true,
    })),
    names: all.map((f) => ({ id: f.id, name: f.name })),
    labels: allLabels(args.context, actor),
  };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  return vocabularyAction(
    args.context,
    actor,
    "foods",
    await args.request.formData(),
    serverT(args.request, "data"),
  );
}

type Food = Awaited<ReturnType<typeof loader>>["foods"][number];
type Label = Awaited<ReturnType<typeof loader>>["labels"][number];

function FoodDialog({
  food,
  labels,
  onClose,
}: {
  food: Food | "new" | null;
  labels: Label[];
  onClose: () => void;
}) {
  const t = useT("data");
  const editing = editedRecord(food);
  const [name, setName] = useState(editing?.name ?? "");
  const [pluralName, setPluralName] = useState(editing?.pluralName ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [labelId, setLabelId] = useState<string | null>(editing?.labelId ?? null);
  const [onHand, setOnHand] = useState(editing?.onHand ?? false);
  return (
    <RecordEditor
      record={food}
      onClose={onClose}
      title={editing ? t("food.edit") : t("food.create")}
      canSubmit={name.trim() !== ""}
      values={() => ({
        name,
        pluralName,
        description,
        labelId: labelId ?? "",
        onHand: onHand,
      })}
      testId="food-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("fields.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          required
          data-autofocus
          data-testid="food-name"
        />
        <TextInput
          label={t("fields.pluralName")}
          value={pluralName}
          onChange={(e) => setPluralName(e.currentTarget.value)}
          data-testid="food-plural"
        />
        <Textarea
          label={t("fields.description")}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Select
          label={t("fields.label")}
          data={labels.map((l) => ({ value: l.id, label: l.name }))}
          value={labelId}
          onChange={setLabelId}
          clearable
          searchable
          comboboxProps={{ withinPortal: true }}
          data-testid="food-label"
        />
        <Switch
          label={t("fields.onHand")}
          checked={onHand}
          onChange={(e) => setOnHand(e.currentTarget.checked)}
          data-testid="food-onhand"
        />
      </Stack>
    </RecordEditor>
  );
}

/**
 * One row of the list, in plain markup (a page shows 50): Mantine's Checkbox, Badge and ActionIcon
 * made the page several times heavier to render and send. On hand is saved at once, with its own
 * request, and shows the value on its way while it saves.
 */
function FoodRow({ food: f, onEdit, onDelete }: { food: Food; onEdit: () => void; onDelete: () => void }) {
  const t = useT("data");
  const fetcher = useSettingsFetcher();
  const [onHand, setOnHand] = useOptimistic(fetcher, f.onHand);
  return (
    <Table.Tr data-testid={`food-row-${f.name}`}>
      <Table.Td>
        <span className="settings__name">{f.name}</span>
        {f.description ? <span className="settings__note settings__wide">{f.description}</span> : null}
        {f.label ? (
          <span className="settings__narrow">
            <LabelChip name={f.label.name} color={f.label.color} />
          </span>
        ) : null}
      </Table.Td>
      <Table.Td className="settings__wide">{f.pluralName}</Table.Td>
      <Table.Td className="settings__wide">
        {f.label ? <LabelChip name={f.label.name} color={f.label.color} /> : null}
      </Table.Td>
      <Table.Td>
        <input
          type="checkbox"
          className="settings__check"
          aria-label={t("food.onHandFor", { name: f.name })}
          checked={onHand}
          data-testid="row-onhand"
          onChange={(e) => {
            setOnHand(e.currentTarget.checked);
            submitForm(fetcher, {
              intent: "onHand",
              id: f.id,
              onHand: e.currentTarget.checked ? "on" : undefined,
            });
          }}
        />
      </Table.Td>
      <Table.Td>
        <PlainRowActions
          editLabel={t("food.editNamed", { name: f.name })}
          deleteLabel={t("food.deleteNamed", { name: f.name })}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      </Table.Td>
    </Table.Tr>
  );
}

export default function Foods() {
  const { shell, foods, names, labels, page, totalPages, total } = useLoaderData<typeof loader>();
  const t = useT("data");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Food>((r) => r.name);
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="data"
        title={t("nav.foods")}
        intro={t("food.intro")}
        testId="foods-page"
        toolbar={
          <>
            <SearchBox label={t("food.search")} />
            <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
              {tc("actions.create")}
            </Button>
            <MergeButton kind="foods" items={names} />
            <SeedButton kind="foods" />
          </>
        }
      >
        <Text size="sm" c="dimmed" aria-live="polite">
          {t("count.foods", { count: total })}
        </Text>
        {foods.length === 0 ? (
          <Text>{t("food.none")}</Text>
        ) : (
          <Table className="settings__table" striped highlightOnHover data-testid="foods-table">
            <RecordTableHead
              headers={[
                { label: t("fields.name") },
                { label: t("fields.pluralName"), className: "settings__wide" },
                { label: t("fields.label"), className: "settings__wide" },
                { label: t("fields.onHand") },
              ]}
            />
            <Table.Tbody>
              {foods.map((f) => (
                <FoodRow
                  key={f.id}
                  food={f}
                  onEdit={() => dialogs.edit(f)}
                  onDelete={() => dialogs.askDelete(f)}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pagination page={page} totalPages={totalPages} />
      </SettingsFrame>
      <FoodDialog
        key={dialogs.editorKey}
        food={dialogs.editing}
        labels={labels}
        onClose={dialogs.closeEditor}
      />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
