/**
 * /shopping-lists (spec §2): the household's shopping lists, mine only unless "show all" (the local
 * preference `viewAllLists`); create, rename and delete. The loader and action call core with the
 * viewer's actor.
 */
import { useEffect, useState } from "react";
import type { MetaFunction } from "react-router";
import { Link, useFetcher, useLoaderData, useNavigate } from "react-router";
import { ActionIcon, Badge, Button, Menu, Switch, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { DotsIcon, PencilIcon, PlusIcon, TrashIcon } from "../components/shopping/icons.js";
import { coreCall, diskRefusal } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { requireUserActor } from "../lib/session.server.js";
import { useShoppingPrefs } from "../lib/shopping/prefs.js";
import { failedText, toast } from "../lib/toast.js";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "shopping")("lists.title")} | ${metaT(matches)("appName")}` },
];

export interface ListCard {
  id: string;
  name: string;
  mine: boolean;
  open: number;
  checked: number;
}

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const { shopping } = context.larder;
  const page = await coreCall(() => shopping.listLists(actor, { perPage: -1 }));
  const lists: ListCard[] = [];
  for (const s of page.items) {
    const l = await coreCall(() => shopping.getList(actor, s.id));
    lists.push({
      id: l.id,
      name: l.name ?? "",
      mine: l.userId === actor.user.id,
      open: l.listItems.filter((i) => !i.checked).length,
      checked: l.listItems.filter((i) => i.checked).length,
    });
  }
  return { lists };
}

export async function action({ request, context }: ActionArgs) {
  const actor = await requireUserActor(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const name = String(form.get("name") ?? "").trim();
  const { shopping } = context.larder;
  try {
    if (intent === "create") {
      const l = await shopping.createList(actor, { name });
      return { ok: true as const, intent, id: l.id };
    }
    if (intent === "rename") {
      await shopping.updateList(actor, id, { name });
      return { ok: true as const, intent, id };
    }
    if (intent === "delete") {
      await shopping.removeList(actor, id);
      return { ok: true as const, intent, id };
    }
  } catch (e) {
    const refused = diskRefusal(context.larder.log, `shopping list ${intent}`, e);
    if (refused) return { ok: false as const, intent, id, error: "failed", message: refused };
    return { ok: false as const, intent, id };
  }
  return { ok: false as const, intent, id };
}

type Dialog = { kind: "create" } | { kind: "rename"; list: ListCard } | { kind: "delete"; list: ListCard };

export default function ShoppingLists() {
  const { lists } = useLoaderData<typeof loader>();
  const t = useT("shopping");
  const tc = useT("common");
  const [prefs, setPrefs] = useShoppingPrefs();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [name, setName] = useState("");
  const fetcher = useFetcher<typeof action>();
  const navigate = useNavigate();
  const busy = fetcher.state !== "idle";

  const result = fetcher.data;
  useEffect(() => {
    if (!result || fetcher.state !== "idle") return;
    if (!result.ok)
      toast.error(failedText(t(`errors.${result.intent === "create" ? "create" : result.intent}`), result));
    else if (result.intent === "create") navigate(`/shopping-lists/${result.id}`);
  }, [result, fetcher.state, navigate, t]);

  const shown = prefs.viewAllLists ? lists : lists.filter((l) => l.mine);
  const submit = (intent: string, extra: Record<string, string>) =>
    fetcher.submit({ intent, ...extra }, { method: "post" });

  return (
    <div className="page shopping">
      <div className="page__header shopping__header">
        <h1 className="page__title">{t("lists.title")}</h1>
        <Button
          leftSection={<PlusIcon />}
          onClick={() => {
            setName("");
            setDialog({ kind: "create" });
          }}
          data-testid="create-list"
        >
          {t("lists.create")}
        </Button>
      </div>
      <Switch
        className="shopping__switch"
        checked={prefs.viewAllLists}
        onChange={(e) => setPrefs({ viewAllLists: e.currentTarget.checked })}
        label={t("lists.showAll")}
        data-testid="show-all-lists"
      />
      {shown.length === 0 ? (
        <div className="empty">
          <p className="empty__title">{lists.length ? t("lists.noneOfMine") : t("lists.none")}</p>
        </div>
      ) : (
        <ul className="shopping-lists" aria-label={t("lists.title")}>
          {shown.map((l) => (
            <li key={l.id} className="shopping-lists__row">
              <Link to={`/shopping-lists/${l.id}`} className="shopping-lists__link" prefetch="intent">
                <span className="shopping-lists__name">{l.name || t("lists.untitled")}</span>
                <Text component="span" size="sm" c="dimmed">
                  {t("lists.counts", { count: l.open, checked: l.checked })}
                </Text>
              </Link>
              {!l.mine ? (
                <Badge variant="light" size="sm">
                  {t("lists.shared")}
                </Badge>
              ) : null}
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" aria-label={t("lists.actions", { name: l.name })}>
                    <DotsIcon />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item
                    leftSection={<PencilIcon />}
                    onClick={() => {
                      setName(l.name);
                      setDialog({ kind: "rename", list: l });
                    }}
                  >
                    {t("lists.rename")}
                  </Menu.Item>
                  <Menu.Item
                    leftSection={<TrashIcon />}
                    color="red"
                    onClick={() => setDialog({ kind: "delete", list: l })}
                  >
                    {tc("actions.delete")}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </li>
          ))}
        </ul>
      )}

      <AppDialog
        opened={dialog?.kind === "create" || dialog?.kind === "rename"}
        onClose={() => setDialog(null)}
        title={dialog?.kind === "rename" ? t("lists.rename") : t("lists.create")}
        submitLabel={dialog?.kind === "rename" ? tc("actions.save") : t("lists.create")}
        canSubmit={name.trim() !== ""}
        loading={busy}
        onSubmit={() => {
          if (dialog?.kind === "rename") submit("rename", { id: dialog.list.id, name });
          else submit("create", { name });
        }}
        data-testid="list-name-dialog"
      >
        <TextInput
          label={t("lists.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
          data-testid="list-name"
        />
      </AppDialog>
      <AppDialog
        opened={dialog?.kind === "delete"}
        onClose={() => setDialog(null)}
        title={t("lists.deleteTitle")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        loading={busy}
        onSubmit={() => {
          if (dialog?.kind === "delete") submit("delete", { id: dialog.list.id });
        }}
      >
        <Text>{t("lists.deleteConfirm", { name: dialog?.kind === "delete" ? dialog.list.name : "" })}</Text>
      </AppDialog>
    </div>
  );
}
