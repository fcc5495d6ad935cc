/**
 * "Add to shopping list" from the recipe menu (spec §4, §8). The dialog first lists the shopping lists
 * (mine, or all with "show all"); when exactly one is visible and "show all" was not touched it goes
 * straight to the ingredient picker. Ingredients are checked unless their food is on hand, and on-hand
 * ones come last in their section. The server sums the scale when the same recipe is added again.
 * 'Successfully added to list' only if the request succeeds, else 'Failed to add recipes to list'.
 */
import { useEffect, useMemo, useState } from "react";
import { Badge, Checkbox, Group, NumberInput, Stack, Text } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { toast } from "../../lib/toast.js";
import { api, LISTS } from "../../lib/shopping/api.js";
import { pickRows, scaledRowText } from "../../lib/shopping/picker.js";
import type { Recipe } from "../../../../core/schemas/recipe.js";
import { ListStepDialog, useListChoice } from "./ListChooser.js";
import { AllOrNone, useTicks } from "./ticks.js";

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
  const { chosen } = choice;
  const [ingredients, setIngredients] = useState<Ingredient[] | null>(null);
  const ticks = useTicks<string>();
  const picked = ticks.ticked;
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
        ticks.set(
          pickRows(r.recipeIngredient)
            .flatMap((s) => s.rows)
            .filter((x) => !x.onHand)
            .map((x) => x.key),
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

  return (
    <ListStepDialog
      opened={opened}
      onClose={onClose}
      choice={choice}
      titleFor={(name) => t("picker.title", { name })}
      onSubmit={submit}
      canSubmit={picked.size > 0 && amount > 0}
      loading={busy}
      ready={ingredients !== null}
      data-testid="add-to-list-dialog"
    >
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
        <AllOrNone onAll={() => ticks.set(rows.map((r) => r.key))} onNone={() => ticks.set([])} />
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
                  onChange={(e) => ticks.toggle(r.key, e.currentTarget.checked)}
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
    </ListStepDialog>
  );
}
