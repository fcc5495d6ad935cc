/**
 * One shopping list: items to buy (grouped by label when `viewByLabel`), a collapsed "checked" section
 * that can be cleared, an add form with food and unit suggestions, editing, reordering by drag or by
 * keyboard (arrow keys on an item's handle), label order, and a status line saying when the page is
 * offline and how many changes wait (decision 0085).
 */
import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from "react";
import { Link, useNavigate } from "react-router";
import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Switch, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { useSession } from "../../lib/use-session.js";
import { useFormat } from "../../lib/use-format.js";
import { useShoppingPrefs } from "../../lib/shopping/prefs.js";
import { useListSync, type ListSync } from "../../lib/shopping/store.js";
import {
  indexVocabulary,
  itemText,
  type ListItem,
  type ListMeta,
  type VocabIndex,
  type Vocabulary,
} from "../../lib/shopping/types.js";
import { byPosition, sectionsOf } from "../../lib/shopping/sections.js";
import { ItemEditor, itemFieldsOf, type ItemDraft } from "./ItemEditor.js";
import {
  ArrowDownIcon,
  ArrowUpIcon,
  ChevronLeftIcon,
  CloudOffIcon,
  DotsIcon,
  GripIcon,
  PencilIcon,
} from "./icons.js";

interface Props {
  list: ListMeta;
  items: ListItem[];
  vocabulary: Vocabulary;
  mine: boolean;
}

export function ListPage({ list: initialList, items: initialItems, vocabulary }: Props) {
  const t = useT("shopping");
  const tc = useT("common");
  const navigate = useNavigate();
  const [state, sync] = useListSync(initialList, initialItems, useSession()?.id ?? "anonymous");
  const [prefs, setPrefs] = useShoppingPrefs();
  const vocab = useMemo(() => indexVocabulary(vocabulary), [vocabulary]);
  const [editing, setEditing] = useState<ListItem | null>(null);
  const [dialog, setDialog] = useState<"rename" | "labels" | "delete" | null>(null);
  const [name, setName] = useState(state.list.name);
  const [announce, setAnnounce] = useState("");
  const { list, items } = state;

  useEffect(() => {
    // The server's reason after ours: "Quantity must be …" says what to change.
    sync.onGiveUp = (reason) => toast.error(reason ? `${t("errors.sync")} ${reason}` : t("errors.sync"));
    sync.onHeld = (reason) => toast.error(reason);
  }, [sync, t]);

  const sections = sectionsOf(items, list, vocab, prefs.viewByLabel);
  const checked = items.filter((i) => i.checked).sort(byPosition);
  const openOrder = sections.flatMap((s) => s.items.map((i) => i.id));

  const move = (id: string, to: number, text: string) => {
    const from = openOrder.indexOf(id);
    if (from < 0 || to < 0 || to >= openOrder.length || from === to) return;
    const next = openOrder.filter((x) => x !== id);
    next.splice(to, 0, id);
    sync.reorder(next);
    setAnnounce(t("items.moved", { name: text, position: to + 1, count: next.length }));
  };

  if (state.deleted) {
    return (
      <div className="page shopping">
        <div className="empty">
          <p className="empty__title">{t("list.deleted")}</p>
          <Link to="/shopping-lists">{t("list.back")}</Link>
        </div>
      </div>
    );
  }

  return (
    <div className="page shopping" data-testid="shopping-list" data-list-id={list.id}>
      <Link to="/shopping-lists" className="shopping__back">
        <ChevronLeftIcon /> {t("list.back")}
      </Link>
      <div className="page__header shopping__header">
        <h1 className="page__title shopping__title">{list.name || t("lists.untitled")}</h1>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="light" size="lg" aria-label={t("list.menu")} data-testid="list-menu">
              <DotsIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              disabled={!state.online}
              onClick={() => {
                setName(list.name);
                setDialog("rename");
              }}
            >
              {t("lists.rename")}
            </Menu.Item>
            <Menu.Item disabled={!state.online} onClick={() => setDialog("labels")}>
              {t("labels.order")}
            </Menu.Item>
            <Menu.Item color="red" disabled={!state.online} onClick={() => setDialog("delete")}>
              {t("lists.deleteTitle")}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </div>

      <SyncStatus online={state.online} pending={state.pending} />

      <AddItemForm vocabulary={vocabulary} vocab={vocab} sync={sync} />

      <Group justify="space-between" className="shopping__toolbar" wrap="wrap">
        <Switch
          checked={prefs.viewByLabel}
          onChange={(e) => setPrefs({ viewByLabel: e.currentTarget.checked })}
          label={t("list.byLabel")}
          data-testid="view-by-label"
        />
        {list.recipes.length ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" size="compact-sm" data-testid="list-recipes">
                {t("list.recipes", { count: list.recipes.length })}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {list.recipes.map((r) => (
                <Menu.Item
                  key={r.id}
                  disabled={!state.online}
                  data-testid="remove-recipe"
                  onClick={() =>
                    void sync
                      .removeRecipe(r.id, r.quantity)
                      .then(() => toast.success(t("list.recipeRemoved", { name: r.name })))
                      .catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)))
                  }
                >
                  {t("list.removeRecipe", { name: r.name })}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>

      <div aria-live="polite" className="visually-hidden">
        {announce}
      </div>

      {openOrder.length === 0 ? (
        <div className="empty shopping__empty">
          <p className="empty__title">{checked.length ? t("list.allDone") : t("list.empty")}</p>
        </div>
      ) : (
        sections.map((s) => (
          <section key={s.key} className="shopping__section" aria-label={s.title ?? t("labels.none")}>
            {prefs.viewByLabel ? (
              <h2 className="shopping__label" style={s.color ? { borderColor: s.color } : undefined}>
                {s.title ?? t("labels.none")}
              </h2>
            ) : null}
            <ul className="shopping-items" data-testid="open-items">
              {s.items.map((i, k) => (
                <ItemRow
                  key={i.id}
                  item={i}
                  vocab={vocab}
                  showLabel={!prefs.viewByLabel}
                  index={openOrder.indexOf(i.id)}
                  // An item moves within its label's section: past its edge, grouping would put it back.
                  canUp={k > 0}
                  canDown={k < s.items.length - 1}
                  onToggle={(v) => {
                    // A checked item leaves the open list: a keyboard user's focus goes on to the next
                    // open item rather than to the page's start.
                    const row = document.querySelector(`[data-item-id="${i.id}"]`);
                    const focused = !!row?.contains(document.activeElement);
                    const at = openOrder.indexOf(i.id);
                    const next = openOrder[at + 1] ?? openOrder[at - 1];
                    sync.update(i.id, { checked: v });
                    if (v && focused && next)
                      requestAnimationFrame(() =>
                        document
                          .querySelector<HTMLInputElement>(`[data-item-id="${next}"] input[type=checkbox]`)
                          ?.focus(),
                      );
                  }}
                  onEdit={() => setEditing(i)}
                  onMove={move}
                />
              ))}
            </ul>
          </section>
        ))
      )}

      {checked.length ? (
        <details className="shopping__checked" data-testid="checked-section">
          <summary>{t("checked.title", { count: checked.length })}</summary>
          <Group gap="xs" className="shopping__checked-actions">
            <Button
              size="xs"
              variant="light"
              onClick={() => checked.forEach((i) => sync.update(i.id, { checked: false }))}
            >
              {t("checked.uncheckAll")}
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => sync.remove(checked.map((i) => i.id))}
              data-testid="delete-checked"
            >
              {t("checked.deleteAll")}
            </Button>
          </Group>
          <ul className="shopping-items shopping-items--checked" data-testid="checked-items">
            {checked.map((i) => (
              <ItemRow
                key={i.id}
                item={i}
                vocab={vocab}
                showLabel={false}
                index={-1}
                onToggle={(v) => sync.update(i.id, { checked: v })}
                onEdit={() => setEditing(i)}
              />
            ))}
          </ul>
        </details>
      ) : null}

      <ItemEditor
        item={editing}
        vocabulary={vocabulary}
        vocab={vocab}
        onClose={() => setEditing(null)}
        onSave={(draft: ItemDraft) => {
          if (editing) sync.update(editing.id, itemFieldsOf(draft, vocab));
        }}
        onDelete={() => {
          if (editing) sync.remove([editing.id]);
        }}
      />

      <AppDialog
        opened={dialog === "rename"}
        onClose={() => setDialog(null)}
        title={t("lists.rename")}
        submitLabel={tc("actions.save")}
        canSubmit={name.trim() !== ""}
        onSubmit={async () => {
          try {
            await sync.rename(name.trim());
          } catch {
            toast.error(t("errors.rename"));
            return false;
          }
        }}
      >
        <TextInput
          label={t("lists.name")}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
        />
      </AppDialog>

      <LabelOrderDialog
        opened={dialog === "labels"}
        onClose={() => setDialog(null)}
        list={list}
        vocab={vocab}
        onSave={async (ids) => {
          try {
            await sync.saveLabelOrder(ids);
          } catch {
            toast.error(t("errors.labels"));
            return false;
          }
        }}
      />

      <AppDialog
        opened={dialog === "delete"}
        onClose={() => setDialog(null)}
        title={t("lists.deleteTitle")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        onSubmit={async () => {
          const res = await fetch(`/api/households/shopping/lists/${list.id}`, { method: "DELETE" }).catch(
            () => null,
          );
          if (!res?.ok) {
            toast.error(t("errors.delete"));
            return false;
          }
          navigate("/shopping-lists", { replace: true });
        }}
      >
        <Text>{t("lists.deleteConfirm", { name: list.name })}</Text>
      </AppDialog>
    </div>
  );
}

function SyncStatus({ online, pending }: { online: boolean; pending: number }) {
  const t = useT("shopping");
  if (online && pending === 0) return null;
  return (
    <div
      className="shopping__status"
      role="status"
      data-testid="sync-status"
      data-online={online}
      data-pending={pending}
    >
      {online ? null : <CloudOffIcon />}
      <span>{online ? t("status.saving", { count: pending }) : t("status.offline", { count: pending })}</span>
    </div>
  );
}

interface RowProps {
  item: ListItem;
  vocab: VocabIndex;
  showLabel: boolean;
  /** Place among the open items (for keyboard moves); -1 for checked items, which do not move. */
  index: number;
  onToggle: (checked: boolean) => void;
  onEdit: () => void;
  onMove?: (id: string, to: number, text: string) => void;
  /** Whether the item can move up or down in its section (the arrows are disabled otherwise). */
  canUp?: boolean;
  canDown?: boolean;
}

let dragged: string | null = null;

function ItemRow({
  item,
  vocab,
  showLabel,
  index,
  onToggle,
  onEdit,
  onMove,
  canUp = true,
  canDown = true,
}: RowProps) {
  const t = useT("shopping");
  const f = useFormat();
  const { main, note } = itemText(item, vocab, f.quantity);
  const food = item.foodId ? vocab.foods.get(item.foodId) : undefined;
  const label = item.labelId ? vocab.labels.get(item.labelId) : undefined;
  const [over, setOver] = useState(false);
  const handle = useRef<HTMLButtonElement>(null);

  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!onMove) return;
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      if (e.key === "ArrowUp" ? !canUp : !canDown) return;
      onMove(item.id, index + (e.key === "ArrowUp" ? -1 : 1), main);
      // The row re-renders in its new place: keep the focus on its handle.
      requestAnimationFrame(() => handle.current?.focus());
    }
  };
  const dnd = onMove
    ? {
        onDragOver: (e: DragEvent) => {
          if (!dragged || dragged === item.id) return;
          e.preventDefault();
          setOver(true);
        },
        onDragLeave: () => setOver(false),
        onDrop: (e: DragEvent) => {
          e.preventDefault();
          setOver(false);
          if (dragged && dragged !== item.id) onMove(dragged, index, main);
          dragged = null;
        },
      }
    : {};

  return (
    <li
      className="shopping-item"
      data-checked={item.checked}
      data-over={over || undefined}
      data-testid="shopping-item"
      data-item-id={item.id}
      {...dnd}
    >
      {onMove ? (
        <button
          ref={handle}
          type="button"
          className="shopping-item__handle"
          draggable
          onDragStart={(e) => {
            dragged = item.id;
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", item.id);
          }}
          onDragEnd={() => (dragged = null)}
          onKeyDown={onKey}
          aria-label={t("items.move", { name: main })}
          title={t("items.moveHint")}
        >
          <GripIcon />
        </button>
      ) : null}
      <Checkbox
        className="shopping-item__check"
        checked={item.checked}
        onChange={(e) => onToggle(e.currentTarget.checked)}
        label={<span className="shopping-item__text">{main}</span>}
        description={[note, item.recipes.join(", ")].filter(Boolean).join(" · ") || undefined}
        data-testid="item-check"
      />
      <div className="shopping-item__badges">
        {food?.onHand ? (
          <Badge size="xs" variant="light" color="gray">
            {t("items.onHand")}
          </Badge>
        ) : null}
        {showLabel && label ? (
          <Badge size="xs" variant="dot" color={label.color || "gray"}>
            {label.name}
          </Badge>
        ) : null}
      </div>
      {onMove ? (
        <span className="shopping-item__arrows">
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t("items.up", { name: main })}
            disabled={!canUp}
            onClick={() => onMove(item.id, index - 1, main)}
            tabIndex={-1}
          >
            <ArrowUpIcon />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={t("items.down", { name: main })}
            disabled={!canDown}
            onClick={() => onMove(item.id, index + 1, main)}
            tabIndex={-1}
          >
            <ArrowDownIcon />
          </ActionIcon>
        </span>
      ) : null}
      <ActionIcon variant="subtle" aria-label={t("items.edit", { name: main })} onClick={onEdit}>
        <PencilIcon />
      </ActionIcon>
    </li>
  );
}

function AddItemForm({
  vocabulary,
  vocab,
  sync,
}: {
  vocabulary: Vocabulary;
  vocab: VocabIndex;
  sync: ListSync;
}) {
  const t = useT("shopping");
  const [draft, setDraft] = useState<ItemDraft>({ quantity: 1, unit: "", food: "", note: "", labelId: null });
  const [key, setKey] = useState(0);
  const canAdd = draft.food.trim() !== "" || draft.note.trim() !== "";
  return (
    <form
      className="shopping__add"
      aria-label={t("add.title")}
      onSubmit={(e) => {
        e.preventDefault();
        if (!canAdd) return;
        sync.add({ ...itemFieldsOf(draft, vocab), checked: false });
        setDraft({ quantity: 1, unit: "", food: "", note: "", labelId: null });
        setKey((k) => k + 1);
      }}
    >
      <ItemEditor.Fields key={key} draft={draft} onChange={setDraft} vocabulary={vocabulary} compact />
      <Button type="submit" disabled={!canAdd} data-testid="add-item">
        {t("add.submit")}
      </Button>
    </form>
  );
}

function LabelOrderDialog({
  opened,
  onClose,
  list,
  vocab,
  onSave,
}: {
  opened: boolean;
  onClose: () => void;
  list: ListMeta;
  vocab: VocabIndex;
  onSave: (labelIds: string[]) => Promise<unknown>;
}) {
  const t = useT("shopping");
  const tc = useT("common");
  const [order, setOrder] = useState<string[]>([]);
  useEffect(() => {
    if (opened)
      setOrder(
        [...list.labelSettings]
          .sort((a, b) => a.position - b.position)
          .map((s) => s.labelId)
          .filter((id) => vocab.labels.has(id)),
      );
  }, [opened, list.labelSettings, vocab]);
  const swap = (i: number, j: number) =>
    setOrder((o) => {
      if (j < 0 || j >= o.length) return o;
      const n = [...o];
      [n[i], n[j]] = [n[j], n[i]];
      return n;
    });
  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={t("labels.order")}
      submitLabel={tc("actions.save")}
      onSubmit={() => onSave(order)}
    >
      {order.length === 0 ? (
        <Text c="dimmed">{t("labels.noLabels")}</Text>
      ) : (
        <ol className="shopping-labels">
          {order.map((id, i) => {
            const l = vocab.labels.get(id);
            return (
              <li key={id} className="shopping-labels__row">
                <span className="shopping-labels__swatch" style={{ background: l?.color || undefined }} />
                <span className="shopping-labels__name">{l?.name}</span>
                <ActionIcon
                  variant="subtle"
                  aria-label={t("items.up", { name: l?.name ?? "" })}
                  disabled={i === 0}
                  onClick={() => swap(i, i - 1)}
                >
                  <ArrowUpIcon />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={t("items.down", { name: l?.name ?? "" })}
                  disabled={i === order.length - 1}
                  onClick={() => swap(i, i + 1)}
                >
                  <ArrowDownIcon />
                </ActionIcon>
              </li>
            );
          })}
        </ol>
      )}
    </AppDialog>
  );
}
