/**
 * /g/{groupSlug}/cookbooks (spec §2): the household's cookbooks in their order. Create (named from the
 * household plus an index, placed last: spec §9), edit the name and the recipe filter with a live
 * count, reorder by dragging or with the up/down buttons (keyboard), delete after a confirmation.
 */
import { useEffect, useState } from "react";
import type { LinksFunction, MetaFunction } from "react-router";
import { Link, useLoaderData } from "react-router";
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { CookbookDialog, type CookbookDraft } from "../components/cookbooks/CookbookDialog.js";
import { SortableList, SortableRow } from "../components/recipe/editor/SortableList.js";
import { PlusIcon, TrashIcon } from "../components/recipe/icons.js";
import { metaT, useT } from "../lib/i18n.js";
import { builderChoices, cookbookRows, type CookbookRow } from "../lib/cookbooks.server.js";
import { newCookbookName, reorder } from "../lib/cookbook-filter.js";
import { requireGroupMember } from "../lib/session.server.js";
import { diskRefusal } from "../lib/errors.server.js";
import { toast } from "../lib/toast.js";
import { problemText, useIntent } from "../lib/use-intent.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import organizeStyles from "../styles/organize.css?url";
import { stylesheet } from "../lib/stylesheets.js";
import { openedCopy } from "../lib/opened-copy.server.js";

export const links: LinksFunction = () => [stylesheet(organizeStyles)];

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "cookbooks")("title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context, params }: LoaderArgs) {
  const { actor, groupSlug } = await requireGroupMember(request, context, params.groupSlug);
  const household = context.larder.membership.household(actor).name;
  return {
    groupSlug,
    household,
    cookbooks: cookbookRows(context, actor),
    choices: builderChoices(context, actor, groupSlug),
  };
}

export async function action({ request, context, params }: ActionArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const str = (k: string) => String(form.get(k) ?? "");
  const cookbooks = context.larder.cookbooks;
  try {
    if (intent === "create") {
      const count = cookbookRows(context, actor).length;
      const c = await cookbooks.create(actor, {
        name: str("name"),
        public: str("public") === "true",
        queryFilterString: str("queryFilterString"),
        position: count + 1,
      });
      return { ok: true as const, intent, slug: c.slug };
    }
    if (intent === "update") {
      // The cookbook as the dialog opened it: what the dialog left alone keeps what changed since.
      const base = openedCopy(form);
      const c = await cookbooks.update(
        actor,
        str("id"),
        { name: str("name"), public: str("public") === "true", queryFilterString: str("queryFilterString") },
        base,
      );
      return { ok: true as const, intent, slug: c.slug };
    }
    if (intent === "reorder") {
      const ids = JSON.parse(str("ids") || "[]") as unknown;
      if (!Array.isArray(ids)) throw new Error("ids must be a list");
      const rows = cookbookRows(context, actor);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const changes = ids
        .map((id, i) => ({ row: byId.get(String(id)), position: i + 1 }))
        .filter((x): x is { row: CookbookRow; position: number } => !!x.row)
        .map(({ row, position }) => ({ id: row.id, name: row.name, position }));
      await cookbooks.updateMany(actor, changes);
      return { ok: true as const, intent, slug: "" };
    }
    if (intent === "delete") {
      await cookbooks.remove(actor, str("id"));
      return { ok: true as const, intent, slug: "" };
    }
    return { ok: false as const, intent, message: "unknown intent" };
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `cookbook ${intent}`, e);
    if (refused) return { ok: false as const, intent, message: refused };
    const status = (e as { status?: number }).status;
    if (status === undefined || status >= 500) throw e;
    return { ok: false as const, intent, message: problemText(e) };
  }
}

export default function Cookbooks() {
  const { groupSlug, household, cookbooks, choices } = useLoaderData<typeof loader>();
  const t = useT("cookbooks");
  const { call, busy } = useIntent<{ slug: string }>();
  const [order, setOrder] = useState(cookbooks);
  const [editing, setEditing] = useState<CookbookDraft | null>(null);
  // The row stays set while the dialog closes, so its text does not blank during the animation.
  const [deleting, setDeleting] = useState<CookbookRow | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const base = `/g/${encodeURIComponent(groupSlug)}`;

  useEffect(() => setOrder(cookbooks), [cookbooks]);

  const move = async (from: number, to: number) => {
    const next = reorder(order, from, to);
    if (next === order || from === to) return;
    setOrder(next);
    const r = await call("reorder", { ids: JSON.stringify(next.map((c) => c.id)) });
    if (!r.ok) {
      toast.error(r.message);
      setOrder(cookbooks);
    }
  };

  const startCreate = () =>
    setEditing({
      id: null,
      name: newCookbookName(
        order.map((c) => c.name),
        (n) => t("newName", { household, n }),
      ),
      public: false,
      queryFilterString: "",
    });

  return (
    <div className="page">
      <div className="page__header">
        <div>
          <h1 className="page__title">{t("title")}</h1>
          <p className="page__subtitle">{t("subtitle", { household })}</p>
        </div>
        <div className="page__header-actions">
          <Button leftSection={<PlusIcon />} onClick={startCreate} data-testid="cookbook-create">
            {t("create")}
          </Button>
        </div>
      </div>

      {order.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{t("empty")}</p>
        </div>
      ) : (
        <SortableList
          ids={order.map((c) => c.id)}
          names={order.map((c) => c.name)}
          onMove={(a, b) => void move(a, b)}
          className="list-rows"
        >
          {order.map((c, i) => (
            <SortableRow key={c.id} id={c.id} label={c.name} className="list-row">
              {(handle) => (
                <Group gap="xs" wrap="nowrap" data-testid="cookbook-row">
                  {handle}
                  <div className="grow list-row__main">
                    <Link to={`${base}/cookbooks/${encodeURIComponent(c.slug)}`} className="list-row__title">
                      {c.name}
                    </Link>
                    <Text size="xs" c="dimmed" truncate>
                      {c.queryFilterString ? t("filtered") : t("everyRecipe")}
                    </Text>
                  </div>
                  {c.public ? <Badge variant="light">{t("public")}</Badge> : null}
                  <Tooltip label={t("moveUp")}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t("moveUpNamed", { name: c.name })}
                      disabled={i === 0 || busy}
                      onClick={() => void move(i, i - 1)}
                      data-testid="cookbook-up"
                    >
                      ↑
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t("moveDown")}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-label={t("moveDownNamed", { name: c.name })}
                      disabled={i === order.length - 1 || busy}
                      onClick={() => void move(i, i + 1)}
                      data-testid="cookbook-down"
                    >
                      ↓
                    </ActionIcon>
                  </Tooltip>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() =>
                      setEditing({
                        id: c.id,
                        name: c.name,
                        public: c.public,
                        queryFilterString: c.queryFilterString,
                      })
                    }
                    aria-label={t("editNamed", { name: c.name })}
                    data-testid="cookbook-edit"
                  >
                    {t("edit.button")}
                  </Button>
                  <Tooltip label={t("delete.button")}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t("deleteNamed", { name: c.name })}
                      onClick={() => {
                        setDeleting(c);
                        setDeleteOpen(true);
                      }}
                      data-testid="cookbook-delete"
                    >
                      <TrashIcon />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              )}
            </SortableRow>
          ))}
        </SortableList>
      )}

      {editing ? (
        <CookbookDialog
          opened
          onClose={() => setEditing(null)}
          draft={editing}
          choices={choices}
          previewUrl={`${base}/cookbooks-preview`}
          onSave={async (v) => {
            const r = await call(editing.id ? "update" : "create", {
              ...(editing.id
                ? {
                    id: editing.id,
                    base: JSON.stringify({
                      name: editing.name,
                      public: editing.public,
                      queryFilterString: editing.queryFilterString,
                    }),
                  }
                : {}),
              name: v.name,
              public: String(v.public),
              queryFilterString: v.queryFilterString,
            });
            if (!r.ok) return r.message;
            toast.success(editing.id ? t("saved") : t("created"));
            return null;
          }}
        />
      ) : null}

      <AppDialog
        opened={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        title={t("delete.title")}
        submitLabel={t("delete.button")}
        submitColor="red"
        data-testid="cookbook-delete-dialog"
        onSubmit={async () => {
          if (!deleting) return;
          const r = await call("delete", { id: deleting.id });
          if (!r.ok) {
            toast.error(r.message);
            return false;
          }
          toast.success(t("delete.done"));
        }}
      >
        <Text>{t("delete.confirm", { name: deleting?.name ?? "" })}</Text>
      </AppDialog>
    </div>
  );
}
