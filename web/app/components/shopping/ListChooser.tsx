/**
 * The first step of every "add to a shopping list" dialog (the recipe menu's, the planner's): the
 * household's lists (mine, or all with "show all"), a new list by name, and — spec §4 — straight to the
 * next step when exactly one list is visible and "show all" was not touched.
 */
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Button, Group, Loader, Stack, Switch, Text, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { useSession } from "../../lib/use-session.js";
import { api, LISTS } from "../../lib/shopping/api.js";
import { useShoppingPrefs } from "../../lib/shopping/prefs.js";
import type { ShoppingListSummaryOut } from "../../../../core/shopping/shopping-service.js";

export interface ListChoice {
  /** Null while loading. */
  lists: ShoppingListSummaryOut[] | null;
  visible: ShoppingListSummaryOut[];
  chosen: ShoppingListSummaryOut | null;
  choose: (l: ShoppingListSummaryOut | null) => void;
  showAll: boolean;
  setShowAll: (on: boolean) => void;
  newName: string;
  setNewName: (name: string) => void;
  createList: () => Promise<void>;
}

/** Loads the lists each time `opened` turns true; `onFailed` when they cannot be read. */
export function useListChoice(opened: boolean, onFailed: () => void): ListChoice {
  const t = useT("shopping");
  const session = useSession();
  const [prefs] = useShoppingPrefs();
  const [lists, setLists] = useState<ShoppingListSummaryOut[] | null>(null);
  const [showAll, setShowAllState] = useState(false);
  const [touched, setTouched] = useState(false);
  const [chosen, choose] = useState<ShoppingListSummaryOut | null>(null);
  const [newName, setNewName] = useState("");

  useEffect(() => {
    if (!opened) return;
    setLists(null);
    choose(null);
    setTouched(false);
    setShowAllState(prefs.viewAllLists);
    let live = true;
    api<{ items: ShoppingListSummaryOut[] }>("GET", `${LISTS}?perPage=-1`).then(
      (l) => {
        if (live) setLists(l.items);
      },
      () => {
        if (live) onFailed();
      },
    );
    return () => {
      live = false;
    };
    // Opening loads once; later preference changes do not reload an open dialog.
  }, [opened]);

  const visible = useMemo(
    () => (lists ?? []).filter((l) => showAll || l.userId === session?.id),
    [lists, showAll, session?.id],
  );
  useEffect(() => {
    if (lists && !chosen && !touched && visible.length === 1) choose(visible[0]);
  }, [lists, visible, chosen, touched]);

  const createList = async () => {
    const name = newName.trim();
    if (!name) return;
    try {
      const l = await api<ShoppingListSummaryOut>("POST", LISTS, { name });
      setLists((cur) => [...(cur ?? []), l]);
      choose(l);
      setNewName("");
    } catch {
      toast.error(t("errors.create"));
    }
  };

  return {
    lists,
    visible,
    chosen,
    choose,
    showAll,
    setShowAll: (on) => {
      setTouched(true);
      setShowAllState(on);
    },
    newName,
    setNewName,
    createList,
  };
}

/** The lists to pick from and the new-list field. */
export function ListChooser({ choice }: { choice: ListChoice }) {
  const t = useT("shopping");
  return (
    <Stack gap="sm">
      <Switch
        checked={choice.showAll}
        onChange={(e) => choice.setShowAll(e.currentTarget.checked)}
        label={t("picker.showAll")}
      />
      {choice.visible.length === 0 ? <Text c="dimmed">{t("picker.noLists")}</Text> : null}
      {choice.visible.map((l) => (
        <Button
          key={l.id}
          variant="light"
          justify="flex-start"
          onClick={() => choice.choose(l)}
          data-testid="pick-list"
        >
          {l.name || t("lists.untitled")}
        </Button>
      ))}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t("picker.newList")}
          value={choice.newName}
          onChange={(e) => choice.setNewName(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              e.stopPropagation();
              void choice.createList();
            }
          }}
          data-testid="picker-new-list"
        />
        <Button variant="default" onClick={() => void choice.createList()} disabled={!choice.newName.trim()}>
          {t("lists.create")}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * A dialog whose first step is choosing the list and whose second (`children`) says what goes on it:
 * titled `titleFor(list name)` once a list is chosen, with "Other list" back to the first step when
 * there was a choice. `ready` false shows the loader (the second step's data is on its way).
 */
export function ListStepDialog(props: {
  opened: boolean;
  onClose: () => void;
  choice: ListChoice;
  titleFor: (listName: string) => string;
  onSubmit: () => unknown;
  canSubmit: boolean;
  loading: boolean;
  ready?: boolean;
  "data-testid": string;
  children: ReactNode;
}) {
  const t = useT("shopping");
  const { choice } = props;
  const { chosen } = choice;
  return (
    <AppDialog
      opened={props.opened}
      onClose={props.onClose}
      title={chosen ? props.titleFor(chosen.name || t("lists.untitled")) : t("picker.chooseList")}
      submitLabel={t("picker.add")}
      onSubmit={chosen ? props.onSubmit : undefined}
      canSubmit={props.canSubmit}
      loading={props.loading}
      data-testid={props["data-testid"]}
      actions={
        chosen && choice.visible.length > 1 ? (
          <Button variant="subtle" onClick={() => choice.choose(null)}>
            {t("picker.changeList")}
          </Button>
        ) : undefined
      }
    >
      {choice.lists === null || props.ready === false ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : !chosen ? (
        <ListChooser choice={choice} />
      ) : (
        props.children
      )}
    </AppDialog>
  );
}
