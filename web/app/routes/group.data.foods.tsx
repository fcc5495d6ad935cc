/**
 * /group/data/foods (spec §2 data management): the group's foods with search, create, edit, delete,
 * merge, on hand (for the viewer's household), label, and seeding. Guard: canOrganize (spec §6).
 */
import { useState } from "react";
import { useLoaderData, useSearchParams, type MetaFunction } from "react-router";
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
} from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
import { SearchBox } from "../components/settings/SearchBox.js";
import { SeedButton } from "../components/settings/SeedDialog.js";
import { MergeButton } from "../components/settings/MergeDialog.js";
import {
  DeleteDialog,
  EditIcon,
  IconButton,
  submitForm,
  useOnSuccess,
  useSettingsFetcher,
} from "../components/settings/common.js";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { PlusIcon, TrashIcon } from "../components/shell/ShellIcons.js";
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
  const tc = useT("common");
  const fetcher = useSettingsFetcher();
  useOnSuccess(fetcher, onClose);
  const editing = food !== null && food !== "new" ? food : null;
  const [name, setName] = useState(editing?.name ?? "");
  const [pluralName, setPluralName] = useState(editing?.pluralName ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [labelId, setLabelId] = useState<string | null>(editing?.labelId ?? null);
  const [onHand, setOnHand] = useState(editing?.onHand ?? false);
  return (
    <AppDialog
      opened={food !== null}
      onClose={onClose}
      title={editing ? t("food.edit") : t("food.create")}
      submitLabel={editing ? tc("actions.save") : tc("actions.create")}
      loading={fetcher.state !== "idle"}
      canSubmit={name.trim() !== ""}
      keepOpen
      onSubmit={() =>
        submitForm(fetcher, {
          intent: editing ? "update" : "create",
          id: editing?.id,
          name,
          pluralName,
          description,
          labelId: labelId ?? "",
          onHand: onHand ? "on" : undefined,
        })
      }
      data-testid="food-dialog"
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
    </AppDialog>
  );
}

/** On hand for the viewer's household, saved at once; shows the value on its way while it saves. */
function OnHandBox({ food }: { food: Food }) {
  const t = useT("data");
  const fetcher = useSettingsFetcher();
  const pending = fetcher.formData;
  const checked = pending ? pending.get("onHand") === "on" : food.onHand;
  return (
    <Checkbox
      aria-label={t("food.onHandFor", { name: food.name })}
      checked={checked}
      data-testid="row-onhand"
      onChange={(e) =>
        submitForm(fetcher, {
          intent: "onHand",
          id: food.id,
          onHand: e.currentTarget.checked ? "on" : undefined,
        })
      }
    />
  );
}

export default function Foods() {
  const { shell, foods, names, labels, page, totalPages, total } = useLoaderData<typeof loader>();
  const t = useT("data");
  const tc = useT("common");
  const [params] = useSearchParams();
  const [editing, setEditing] = useState<Food | "new" | null>(null);
  const [deleting, setDeleting] = useState<Food | null>(null);
  const remove = useSettingsFetcher();
  useOnSuccess(remove, () => setDeleting(null));
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(p));
    return `?${next.toString()}`;
  };
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
            <Button leftSection={<PlusIcon />} onClick={() => setEditing("new")} data-testid="create-open">
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
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("fields.name")}</Table.Th>
                <Table.Th className="settings__wide">{t("fields.pluralName")}</Table.Th>
                <Table.Th className="settings__wide">{t("fields.label")}</Table.Th>
                <Table.Th>{t("fields.onHand")}</Table.Th>
                <Table.Th w={88}>
                  <span className="visually-hidden">{t("fields.actions")}</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {foods.map((f) => (
                <Table.Tr key={f.id} data-testid={`food-row-${f.name}`}>
                  <Table.Td>
                    <Text fw={500}>{f.name}</Text>
                    {f.description ? (
                      <Text size="xs" c="dimmed" lineClamp={1} className="settings__wide">
                        {f.description}
                      </Text>
                    ) : null}
                    {f.label ? (
                      <div className="settings__narrow">
                        <Badge color={f.label.color} variant="filled" autoContrast size="xs" mt={4}>
                          {f.label.name}
                        </Badge>
                      </div>
                    ) : null}
                  </Table.Td>
                  <Table.Td className="settings__wide">{f.pluralName}</Table.Td>
                  <Table.Td className="settings__wide">
                    {f.label ? (
                      <Badge color={f.label.color} variant="filled" autoContrast>
                        {f.label.name}
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <OnHandBox food={f} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap">
                      <IconButton
                        label={t("food.editNamed", { name: f.name })}
                        onClick={() => setEditing(f)}
                        testId="row-edit"
                      >
                        <EditIcon />
                      </IconButton>
                      <IconButton
                        label={t("food.deleteNamed", { name: f.name })}
                        color="error"
                        onClick={() => setDeleting(f)}
                        testId="row-delete"
                      >
                        <TrashIcon />
                      </IconButton>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Pagination page={page} totalPages={totalPages} hrefFor={hrefFor} />
      </SettingsFrame>
      <FoodDialog
        key={editing === null ? "closed" : editing === "new" ? "new" : editing.id}
        food={editing}
        labels={labels}
        onClose={() => setEditing(null)}
      />
      <DeleteDialog
        name={deleting?.name ?? null}
        onClose={() => setDeleting(null)}
        loading={remove.state !== "idle"}
        onConfirm={() => deleting && submitForm(remove, { intent: "delete", id: deleting.id })}
      />
    </DefaultLayout>
  );
}
