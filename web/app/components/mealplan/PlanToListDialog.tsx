/**
 * The planner's "Add to shopping list": the recipes planned on the days shown go on a list in one step,
 * each as often as it is planned (the server sums a recipe's scale), foods the household has on hand
 * left out as the recipe menu's picker leaves them unticked. Days before today start unticked: the
 * week's shopping is for what is still to cook.
 */
import { useEffect, useMemo, useState } from "react";
import { Checkbox, Stack, Text } from "@mantine/core";
import { useLanguage, useT } from "../../lib/i18n.js";
import { formatPlanDate } from "../../lib/mealplan.js";
import { toast } from "../../lib/toast.js";
import type { PlanEntryView } from "../../lib/mealplan.server.js";
import { ListStepDialog, useListChoice } from "../shopping/ListChooser.js";
import { AllOrNone, useTicks } from "../shopping/ticks.js";

/** A recipe and how many times it goes on the list. */
export interface PlannedRecipe {
  recipeId: string;
  count: number;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The entries of the days shown. */
  entries: PlanEntryView[];
  /** The reader's day (YYYY-MM-DD), or "" before it is known. */
  today: string;
  /** Adds the recipes to the list; false when it failed (the dialog stays open). */
  onAdd: (list: { id: string; name: string }, recipes: PlannedRecipe[]) => Promise<boolean>;
}

export function PlanToListDialog({ opened, onClose, entries, today, onAdd }: Props) {
  const t = useT("planner");
  const ts = useT("shopping");
  const { lang } = useLanguage();
  const choice = useListChoice(opened, () => {
    toast.error(ts("picker.failed"));
    onClose();
  });
  const planned = useMemo(
    () =>
      entries.filter((e) => e.recipe !== null).sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id),
    [entries],
  );
  const ticks = useTicks<number>();
  const picked = ticks.ticked;
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (opened) ticks.set(planned.filter((e) => !today || e.date >= today).map((e) => e.id));
    // Ticked once per opening: the entries changing behind an open dialog keep the person's choice.
  }, [opened]);

  const { chosen } = choice;
  const submit = async () => {
    if (!chosen) return false;
    const counts = new Map<string, number>();
    for (const e of planned)
      if (picked.has(e.id) && e.recipe) counts.set(e.recipe.id, (counts.get(e.recipe.id) ?? 0) + 1);
    setBusy(true);
    try {
      const ok = await onAdd(
        { id: chosen.id, name: chosen.name || ts("lists.untitled") },
        [...counts].map(([recipeId, count]) => ({ recipeId, count })),
      );
      return ok ? undefined : false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <ListStepDialog
      opened={opened}
      onClose={onClose}
      choice={choice}
      titleFor={(name) => t("toList.title", { name })}
      onSubmit={submit}
      canSubmit={picked.size > 0}
      loading={busy}
      data-testid="plan-to-list-dialog"
    >
      {planned.length === 0 ? (
        <Text c="dimmed">{t("toList.nothingPlanned")}</Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t("toList.hint")}
          </Text>
          <AllOrNone onAll={() => ticks.set(planned.map((e) => e.id))} onNone={() => ticks.set([])} />
          {planned.map((e) => (
            <Checkbox
              key={e.id}
              checked={picked.has(e.id)}
              onChange={(ev) => ticks.toggle(e.id, ev.currentTarget.checked)}
              label={`${formatPlanDate(e.date, lang, { weekday: "short", day: "numeric", month: "short" })} · ${t(`types.${e.entryType}`)} · ${e.recipe?.name ?? ""}`}
              data-testid="plan-to-list-entry"
            />
          ))}
        </Stack>
      )}
    </ListStepDialog>
  );
}
