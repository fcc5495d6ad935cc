/**
 * The recipe menu's "Add to meal plan" (spec §6, §8): a date and an entry type, then 'recipe added to
 * mealplan' when the plan took it, else 'failed to add recipe to mealplan'. Posts to the planner's action.
 */
import { useEffect, useState } from "react";
import { Select, Stack, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import {
  DEFAULT_ENTRY_TYPE,
  ENTRY_TYPES,
  isPlanDate,
  localDate,
  type EntryType,
} from "../../lib/mealplan.js";
import { toast } from "../../lib/toast.js";
import { PLANNER_PATH, usePlanAction } from "./use-plan-action.js";

export function AddToMealPlanDialog({
  opened,
  onClose,
  recipe,
}: {
  opened: boolean;
  onClose: () => void;
  recipe: { id: string; name: string };
}) {
  const t = useT("planner");
  const tc = useT("common");
  const { call, busy } = usePlanAction(PLANNER_PATH);
  const [date, setDate] = useState("");
  const [entryType, setEntryType] = useState<EntryType>(DEFAULT_ENTRY_TYPE);
  useEffect(() => {
    if (opened) setDate(localDate());
  }, [opened]);

  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={t("addToPlan.title", { name: recipe.name })}
      submitLabel={t("entry.add")}
      loading={busy}
      canSubmit={isPlanDate(date)}
      data-testid="add-to-plan-dialog"
      onSubmit={async () => {
        const r = await call("create", { date, entryType, recipeId: recipe.id });
        if (r.ok) toast.success(t("addToPlan.added"));
        else toast.error(t("addToPlan.failed"));
        return r.ok;
      }}
    >
      <Stack gap="sm">
        <TextInput
          type="date"
          label={t("entry.date")}
          value={date}
          onChange={(e) => setDate(e.currentTarget.value)}
          error={date && !isPlanDate(date) ? tc("validation.required") : undefined}
          withAsterisk
          data-autofocus
          data-testid="add-to-plan-date"
        />
        <Select
          label={t("entry.type")}
          data={ENTRY_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
          value={entryType}
          onChange={(v) => v && setEntryType(v as EntryType)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          data-testid="add-to-plan-type"
        />
      </Stack>
    </AppDialog>
  );
}
