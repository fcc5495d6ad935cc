/**
 * "Add to shopping list" from the recipe menu (spec §4, §8). The dialog first lists the shopping lists
 * (mine, or all with "show all"); when exactly one is visible and "show all" was not touched it goes
 * straight to the ingredient picker. Ingredients are checked unless their food is on hand, and on-hand
 * ones come last in their section. The server sums the scale when the same recipe is added again.
 * 'Successfully added to list' only if the request succeeds, else 'Failed to add recipes to list'.
 */
import { useEffect, useMemo, useState } from "react";
import { Badge, Button, Checkbox, Group, Loader, NumberInput, Stack, Text } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { api, LISTS } from "../../lib/shopping/api.js";
import { pickRows, scaledRowText } from "../../lib/shopping/picker.js";
import type { Recipe } from "../../../../core/schemas/recipe.js";
import { ListChooser, useListChoice } from "./ListChooser.js";

type Ingredient = Recipe["recipeIngredient"][number];

interface Props {
  opened: boolean;
  onClose: () => void;
  recipe: { id: string; slug: string; name: string };
  scale: number;
}

export function AddToListDialog({ opened, onClose, recipe, scale }: Props) {
  const t = useT("shopping");
  const failed = () => {
    toast.error(t("picker.failed"));
    onClose();
  };
  const choice = useListChoice(opened, failed);
  const { lists, visible, chosen } = choice;
  const [ingredients, setIngredients] = useState<Ingredient[] | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [amount, setAmount] = useState<number>(scale);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!opened) return;
    setIngredients(null);
    setAmount(scale);
    let live = true;
    api<Recipe>("GET", `/api/recipes/${encodeURIComponent(recipe.slug)}`).then(
      (r) => {
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
      },
      () => {
        if (live) failed();
      },
    );
    return () => {
      live = false;
    };
  }, [opened, recipe.slug]);

  const sections = useMemo(() => pickRows(ingredients ?? []), [ingredients]);
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
          <Button variant="subtle" onClick={() => choice.choose(null)}>
            {t("picker.changeList")}
          </Button>
        ) : undefined
      }
    >
      {lists === null || ingredients === null ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : !picking ? (
        <ListChooser choice={choice} />
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
