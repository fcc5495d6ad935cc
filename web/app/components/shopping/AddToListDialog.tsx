/**
 * "Add to shopping list" from the recipe menu (spec §4, §8). The dialog first lists the shopping lists
 * (mine, or all with "show all"); when exactly one is visible and "show all" was not touched it goes
 * straight to the ingredient picker. Ingredients are checked unless their food is on hand, and on-hand
 * ones come last in their section. The server sums the scale when the same recipe is added again.
 * 'Successfully added to list' only if the request succeeds, else 'Failed to add recipes to list'.
 */
import { useEffect, useMemo, useState } from "react";
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  NumberInput,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { useSession } from "../../lib/use-session.js";
import { api, LISTS } from "../../lib/shopping/api.js";
import { useShoppingPrefs } from "../../lib/shopping/prefs.js";
import { pickRows, scaledRowText } from "../../lib/shopping/picker.js";
import type { ShoppingListSummaryOut } from "../../../../core/shopping/shopping-service.js";
import type { Recipe } from "../../../../core/schemas/recipe.js";

type Ingredient = Recipe["recipeIngredient"][number];

interface Props {
  opened: boolean;
  onClose: () => void;
  recipe: { id: string; slug: string; name: string };
  scale: number;
}

export function AddToListDialog({ opened, onClose, recipe, scale }: Props) {
  const t = useT("shopping");
  const session = useSession();
  const [prefs] = useShoppingPrefs();
  const [lists, setLists] = useState<ShoppingListSummaryOut[] | null>(null);
  const [ingredients, setIngredients] = useState<Ingredient[]>([]);
  const [showAll, setShowAll] = useState(false);
  const [touched, setTouched] = useState(false);
  const [chosen, setChosen] = useState<ShoppingListSummaryOut | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [amount, setAmount] = useState<number>(scale);
  const [busy, setBusy] = useState(false);
  const [newName, setNewName] = useState("");

  useEffect(() => {
    if (!opened) return;
    setLists(null);
    setChosen(null);
    setTouched(false);
    setShowAll(prefs.viewAllLists);
    setAmount(scale);
    let live = true;
    Promise.all([
      api<{ items: ShoppingListSummaryOut[] }>("GET", `${LISTS}?perPage=-1`),
      api<Recipe>("GET", `/api/recipes/${encodeURIComponent(recipe.slug)}`),
    ]).then(
      ([l, r]) => {
        if (!live) return;
        setIngredients(r.recipeIngredient);
        setPicked(
          new Set(
            pickRows(r.recipeIngredient)
              .flatMap((s) => s.rows)
              .filter((x) => !x.onHand)
              .map((x) => x.key),
          ),
        );
        setLists(l.items);
      },
      () => {
        if (!live) return;
        toast.error(t("picker.failed"));
        onClose();
      },
    );
    return () => {
      live = false;
    };
    // Opening loads once; later preference changes do not reload an open dialog.
  }, [opened, recipe.slug]);

  const visible = useMemo(
    () => (lists ?? []).filter((l) => showAll || l.userId === session?.id),
    [lists, showAll, session?.id],
  );
  // Spec §4: exactly one visible list and "show all" untouched → straight to the ingredients.
  useEffect(() => {
    if (lists && !chosen && !touched && visible.length === 1) setChosen(visible[0]);
  }, [lists, visible, chosen, touched]);

  const sections = useMemo(() => pickRows(ingredients), [ingredients]);
  const rows = sections.flatMap((s) => s.rows);

  const submit = async () => {
    if (!chosen) return false;
    setBusy(true);
    try {
      await api("POST", `${LISTS}/${chosen.id}/recipe`, [
        {
          recipeId: recipe.id,
          recipeIncrementQuantity: amount > 0 ? amount : 1,
          recipeIngredients: rows.filter((r) => picked.has(r.key)).map((r) => r.raw),
        },
      ]);
      toast.success(t("picker.added"));
    } catch {
      toast.error(t("picker.failed"));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const createList = async () => {
    const name = newName.trim();
    if (!name) return;
    try {
      const l = await api<ShoppingListSummaryOut>("POST", LISTS, { name });
      setLists((cur) => [...(cur ?? []), l]);
      setChosen(l);
      setNewName("");
    } catch {
      toast.error(t("errors.create"));
    }
  };

  const picking = chosen !== null;
  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={
        picking ? t("picker.title", { name: chosen.name || t("lists.untitled") }) : t("picker.chooseList")
      }
      submitLabel={t("picker.add")}
      onSubmit={picking ? submit : undefined}
      canSubmit={picked.size > 0 && amount > 0}
      loading={busy}
      data-testid="add-to-list-dialog"
      actions={
        picking && visible.length > 1 ? (
          <Button variant="subtle" onClick={() => setChosen(null)}>
            {t("picker.changeList")}
          </Button>
        ) : undefined
      }
    >
      {lists === null ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : !picking ? (
        <Stack gap="sm">
          <Switch
            checked={showAll}
            onChange={(e) => {
              setTouched(true);
              setShowAll(e.currentTarget.checked);
            }}
            label={t("picker.showAll")}
          />
          {visible.length === 0 ? <Text c="dimmed">{t("picker.noLists")}</Text> : null}
          {visible.map((l) => (
            <Button
              key={l.id}
              variant="light"
              justify="flex-start"
              onClick={() => setChosen(l)}
              data-testid="pick-list"
            >
              {l.name || t("lists.untitled")}
            </Button>
          ))}
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={t("picker.newList")}
              value={newName}
              onChange={(e) => setNewName(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  e.stopPropagation();
                  void createList();
                }
              }}
              data-testid="picker-new-list"
            />
            <Button variant="default" onClick={() => void createList()} disabled={!newName.trim()}>
              {t("lists.create")}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="xs">
          <NumberInput
            label={t("picker.scale")}
            value={amount}
            min={0.125}
            step={0.5}
            decimalScale={3}
            onChange={(v) => setAmount(typeof v === "number" ? v : Number(v) || 0)}
            data-testid="picker-scale"
          />
          <Group gap="xs">
            <Button size="xs" variant="subtle" onClick={() => setPicked(new Set(rows.map((r) => r.key)))}>
              {t("picker.selectAll")}
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setPicked(new Set())}>
              {t("picker.selectNone")}
            </Button>
          </Group>
          {sections.map((s, si) => (
            <Stack key={si} gap={6}>
              {s.title ? (
                <Text fw={600} size="sm">
                  {s.title}
                </Text>
              ) : null}
              {s.rows.map((r) => (
                <Group key={r.key} gap="xs" wrap="nowrap" justify="space-between">
                  <Checkbox
                    checked={picked.has(r.key)}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setPicked((cur) => {
                        const next = new Set(cur);
                        if (on) next.add(r.key);
                        else next.delete(r.key);
                        return next;
                      });
                    }}
                    label={scaledRowText(r, amount)}
                    data-testid="pick-ingredient"
                    data-on-hand={r.onHand}
                  />
                  {r.onHand ? (
                    <Badge size="xs" variant="light" color="gray">
                      {t("picker.onHand")}
                    </Badge>
                  ) : null}
                </Group>
              ))}
            </Stack>
          ))}
        </Stack>
      )}
    </AppDialog>
  );
}
