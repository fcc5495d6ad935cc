/**
 * /group/data/recipe-actions (spec §2, §3): the household's recipe actions, a link opened or a POST
 * sent from the recipe page's menu. The address may hold ${url}, ${id} and ${slug}. Guard: canOrganize.
 */
import { useState } from "react";
import { data as reply, useLoaderData, type MetaFunction } from "react-router";
import { Badge, Button, Code, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { SettingsFrame } from "../components/settings/SettingsFrame.js";
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
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "data")("nav.recipeActions")} | ${metaT(matches)("appName")}` },
];

const GUARDS = { canOrganize: true } as const;

export async function loader(args: LoaderArgs) {
  const { actor, shell } = await settingsViewer(args, GUARDS);
  const env = args.context.larder.recipeActions.list(actor, {
    page: "1",
    perPage: "-1",
    orderBy: "title",
    orderDirection: "asc",
  });
  return {
    shell,
    actions: env.items.map((a) => ({ id: a.id, title: a.title, actionType: a.actionType, url: a.url })),
  };
}

export async function action(args: ActionArgs) {
  const { actor } = await settingsViewer(args, GUARDS);
  const form = await args.request.formData();
  const t = serverT(args.request, "data");
  const s = args.context.larder.recipeActions;
  const body = () => ({
    title: field(form, "title").trim(),
    actionType: field(form, "actionType"),
    url: field(form, "url").trim(),
  });
  const intent = field(form, "intent");
  switch (intent) {
    case "create":
      return settingsWrite(args.context, intent, t("action.created"), () => s.create(actor, body()));
    case "update":
      return settingsWrite(args.context, intent, t("action.updated"), () =>
        s.update(actor, field(form, "id"), body()),
      );
    case "delete":
      return settingsWrite(args.context, intent, t("action.deleted"), () =>
        s.remove(actor, field(form, "id")),
      );
    default:
      throw reply("Unknown intent", { status: 400 });
  }
}

type Action = Awaited<ReturnType<typeof loader>>["actions"][number];

function ActionDialog({ item, onClose }: { item: Action | "new" | null; onClose: () => void }) {
  const t = useT("data");
  const editing = editedRecord(item);
  const [title, setTitle] = useState(editing?.title ?? "");
  const [actionType, setActionType] = useState<string>(editing?.actionType ?? "link");
  const [url, setUrl] = useState(editing?.url ?? "");
  return (
    <RecordEditor
      record={item}
      onClose={onClose}
      title={editing ? t("action.edit") : t("action.create")}
      canSubmit={title.trim() !== "" && url.trim() !== ""}
      values={() => ({
        title,
        actionType,
        url,
      })}
      testId="action-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label={t("fields.title")}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          required
          data-autofocus
          data-testid="action-title"
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="action-type-label">
            {t("fields.actionType")}
          </Text>
          <SegmentedControl
            aria-labelledby="action-type-label"
            value={actionType}
            onChange={setActionType}
            data={[
              { value: "link", label: t("action.type.link") },
              { value: "post", label: t("action.type.post") },
            ]}
            data-testid="action-type"
          />
          <Text size="xs" c="dimmed" mt={4}>
            {t(`action.typeHelp.${actionType}`)}
          </Text>
        </div>
        <TextInput
          label={t("fields.url")}
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required
          type="url"
          placeholder="https://example.com/add?recipe=${slug}"
          data-testid="action-url"
        />
        <Text size="xs" c="dimmed">
          {t("action.placeholders")} <Code>{"${url}"}</Code> <Code>{"${id}"}</Code> <Code>{"${slug}"}</Code>
        </Text>
      </Stack>
    </RecordEditor>
  );
}

export default function RecipeActions() {
  const { shell, actions } = useLoaderData<typeof loader>();
  const t = useT("data");
  const tc = useT("common");
  const dialogs = useRecordDialogs<Action>((a) => a.title);
  return (
    <DefaultLayout shell={shell}>
      <SettingsFrame
        section="data"
        title={t("nav.recipeActions")}
        intro={t("action.intro")}
        testId="recipe-actions-page"
        toolbar={
          <Button leftSection={<PlusIcon />} onClick={() => dialogs.edit("new")} data-testid="create-open">
            {tc("actions.create")}
          </Button>
        }
      >
        {actions.length === 0 ? (
          <Text>{t("action.none")}</Text>
        ) : (
          <RecordTable
            rows={actions}
            dialogs={dialogs}
            testId="actions-table"
            rowTestId={(a) => `action-row-${a.title}`}
            editLabel={(a) => t("action.editNamed", { name: a.title })}
            deleteLabel={(a) => t("action.deleteNamed", { name: a.title })}
            highlightOnHover
            columns={[
              { header: t("fields.title"), cell: (a) => <Text fw={500}>{a.title}</Text> },
              {
                header: t("fields.actionType"),
                cell: (a) => <Badge variant="light">{t(`action.type.${a.actionType}`)}</Badge>,
              },
              {
                header: t("fields.url"),
                className: "settings__wide",
                cell: (a) => (
                  <Text size="sm" ff="monospace">
                    {a.url}
                  </Text>
                ),
              },
            ]}
          />
        )}
      </SettingsFrame>
      <ActionDialog key={dialogs.editorKey} item={dialogs.editing} onClose={dialogs.closeEditor} />
      {dialogs.deleteDialog}
    </DefaultLayout>
  );
}
