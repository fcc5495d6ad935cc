/**
 * /g/{groupSlug}/recipes/categories, /tags, /tools (spec §2): the group's organizers of one kind with
 * how many recipes name each. Create, rename, merge into another, delete after a confirmation; a name
 * opens the group home filtered by it. Renames and merges rewrite the recipes that name them.
 */
import { useEffect, useRef, useState } from "react";
import type { LinksFunction, MetaFunction } from "react-router";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "react-router";
import { ActionIcon, Badge, Button, Group, Select, Text, TextInput, Tooltip } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { PencilIcon, TrashIcon } from "../components/recipe/icons.js";
import { metaT, useT } from "../lib/i18n.js";
import { requireGroupMember } from "../lib/session.server.js";
import { diskRefusal } from "../lib/errors.server.js";
import { toast } from "../lib/toast.js";
import { problemText, useIntent } from "../lib/use-intent.js";
import type { OrganizerRow } from "../../../core/organizers/organizer-actions.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import organizeStyles from "../styles/organize.css?url";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(organizeStyles)];

const KINDS = ["categories", "tags", "tools"] as const;
type Kind = (typeof KINDS)[number];

function kindOf(param: string | undefined): Kind {
  if (!KINDS.includes(param as Kind)) throw new Response("Not Found", { status: 404 });
  return param as Kind;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `${metaT(matches, "organizers")(`${data.kind}.title`)} | ${metaT(matches)("appName")}`
      : metaT(matches)("appName"),
  },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const kind = kindOf(params.kind);
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  return { kind, groupSlug, rows: context.larder.organizerActions.rows(actor, kind) };
}

export async function action({ request, context, params }: ActionArgs) {
  const kind = kindOf(params.kind);
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const str = (k: string) => String(form.get(k) ?? "").trim();
  const org = context.larder.organizerActions;
  try {
    if (intent === "create") await org.add(actor, kind, str("name"));
    else if (intent === "rename") await org.rename(actor, kind, str("id"), str("name"));
    else if (intent === "delete") await org.remove(actor, kind, str("id"));
    else if (intent === "merge") await org.merge(actor, kind, [str("id")], str("into"));
    else return { ok: false as const, intent, message: "unknown intent" };
    return { ok: true as const, intent };
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `${kind} ${intent}`, e);
    if (refused) return { ok: false as const, intent, message: refused };
    const status = (e as { status?: number }).status;
    if (status === undefined && !(e as { issues?: unknown }).issues) throw e;
    if (status !== undefined && status >= 500) throw e;
    return { ok: false as const, intent, message: problemText(e) };
  }
}

type Dialog = { type: "rename" | "merge" | "delete"; row: OrganizerRow } | null;

export default function Organizers() {
  const { kind, groupSlug, rows } = useLoaderData<typeof loader>();
  const t = useT("organizers");
  const { call } = useIntent();
  const navigation = useNavigation();
  const created = useActionData<typeof action>();
  const createForm = useRef<HTMLFormElement>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [name, setName] = useState("");
  const [into, setInto] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const base = `/g/${encodeURIComponent(groupSlug)}`;
  const shown = rows.filter((r) => r.name.toLowerCase().includes(filter.trim().toLowerCase()));

  // A plain form post creates: empty the box once it has worked (the list shows the new one).
  useEffect(() => {
    if (navigation.state === "idle" && created?.intent === "create" && created.ok)
      createForm.current?.reset();
  }, [navigation.state, created]);

  const open = (type: "rename" | "merge" | "delete", row: OrganizerRow) => {
    setDialog({ type, row });
    setName(row.name);
    setInto(null);
    setProblem(null);
  };
  const close = () => setDialog(null);
  const run = async (intent: string, fields: Record<string, string>, done: string) => {
    const r = await call(intent, fields);
    if (!r.ok) {
      setProblem(r.message);
      return false;
    }
    toast.success(done);
    return true;
  };

  return (
    <div className="page">
      <div className="page__header">
        <div>
          <h1 className="page__title">{t(`${kind}.title`)}</h1>
          <p className="page__subtitle" data-testid="organizer-count">
            {t(`${kind}.count`, { count: rows.length })}
          </p>
        </div>
      </div>
      <nav className="organizer-tabs" aria-label={t("kinds")}>
        <Group gap="xs" mb="md">
          {KINDS.map((k) => (
            <Button
              key={k}
              component={Link}
              to={`${base}/recipes/${k}`}
              variant={k === kind ? "filled" : "default"}
              size="xs"
              aria-current={k === kind ? "page" : undefined}
            >
              {t(`${k}.title`)}
            </Button>
          ))}
        </Group>
      </nav>
      <Form method="post" className="organizer-create" ref={createForm}>
        <input type="hidden" name="intent" value="create" />
        <Group align="flex-end" gap="xs" mb="md" wrap="wrap">
          <TextInput
            name="name"
            label={t(`${kind}.new`)}
            required
            className="grow"
            error={created?.intent === "create" && !created.ok ? created.message : undefined}
            data-testid="organizer-new"
          />
          <Button type="submit" loading={navigation.state === "submitting"} data-testid="organizer-create">
            {t("create")}
          </Button>
        </Group>
      </Form>
      {rows.length > 8 ? (
        <TextInput
          mb="sm"
          label={t("filter")}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          type="search"
        />
      ) : null}
      {rows.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{t(`${kind}.empty`)}</p>
        </div>
      ) : (
        <ul className="list-rows" aria-label={t(`${kind}.title`)}>
          {shown.map((r) => (
            <li key={r.id} className="list-row" data-testid="organizer-row" data-name={r.name}>
              <Group gap="xs" wrap="nowrap">
                <div className="grow">
                  <Link
                    to={`${base}?${kind}=${encodeURIComponent(r.slug)}`}
                    className="list-row__title"
                    data-testid="organizer-open"
                  >
                    {r.name}
                  </Link>
                </div>
                <Badge variant="light" color={r.count ? "primary" : "gray"} data-testid="organizer-recipes">
                  {t("recipes", { count: r.count })}
                </Badge>
                <Tooltip label={t("rename")}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    aria-label={t("renameNamed", { name: r.name })}
                    onClick={() => open("rename", r)}
                    data-testid="organizer-rename"
                  >
                    <PencilIcon />
                  </ActionIcon>
                </Tooltip>
                <Button
                  variant="default"
                  size="xs"
                  disabled={rows.length < 2}
                  aria-label={t("mergeNamed", { name: r.name })}
                  onClick={() => open("merge", r)}
                  data-testid="organizer-merge"
                >
                  {t("merge")}
                </Button>
                <Tooltip label={t("delete")}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t("deleteNamed", { name: r.name })}
                    onClick={() => open("delete", r)}
                    data-testid="organizer-delete"
                  >
                    <TrashIcon />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </li>
          ))}
        </ul>
      )}

      <AppDialog
        opened={dialog?.type === "rename"}
        onClose={close}
        title={t("renameTitle", { name: dialog?.row.name ?? "" })}
        submitLabel={t("rename")}
        canSubmit={name.trim() !== "" && name.trim() !== dialog?.row.name}
        data-testid="organizer-rename-dialog"
        onSubmit={() => dialog && run("rename", { id: dialog.row.id, name: name.trim() }, t("renamed"))}
      >
        <TextInput
          label={t("name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={problem}
          data-autofocus
          data-testid="organizer-rename-name"
        />
        {dialog?.row.count ? (
          <Text size="sm" c="dimmed" mt="xs">
            {t("renameHint", { count: dialog.row.count })}
          </Text>
        ) : null}
      </AppDialog>

      <AppDialog
        opened={dialog?.type === "merge"}
        onClose={close}
        title={t("mergeTitle", { name: dialog?.row.name ?? "" })}
        submitLabel={t("merge")}
        canSubmit={into !== null}
        data-testid="organizer-merge-dialog"
        onSubmit={() => dialog && into && run("merge", { id: dialog.row.id, into }, t("merged"))}
      >
        <Select
          label={t("mergeInto")}
          data={rows.filter((r) => r.id !== dialog?.row.id).map((r) => ({ value: r.id, label: r.name }))}
          value={into}
          onChange={setInto}
          searchable
          error={problem}
          data-testid="organizer-merge-into"
        />
        <Text size="sm" c="dimmed" mt="xs">
          {t("mergeHint", { name: dialog?.row.name ?? "", count: dialog?.row.count ?? 0 })}
        </Text>
      </AppDialog>

      <AppDialog
        opened={dialog?.type === "delete"}
        onClose={close}
        title={t("deleteTitle")}
        submitLabel={t("delete")}
        submitColor="red"
        data-testid="organizer-delete-dialog"
        onSubmit={() => dialog && run("delete", { id: dialog.row.id }, t("deleted"))}
      >
        <Text>{t("deleteConfirm", { name: dialog?.row.name ?? "", count: dialog?.row.count ?? 0 })}</Text>
        {problem ? (
          <Text c="red" size="sm" mt="xs">
            {problem}
          </Text>
        ) : null}
      </AppDialog>
    </div>
  );
}
