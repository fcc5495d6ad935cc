/**
 * Add or edit a meal plan entry: a recipe found by search, or a note (title and text); its day and entry
 * type. The date field is also the keyboard way to move an entry to another day.
 */
import { useEffect, useState } from "react";
import { SegmentedControl, Select, Stack, TextInput, Textarea } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import { ENTRY_TYPES, isPlanDate, type EntryType } from "../../lib/mealplan.js";
import type { PlanEntryView } from "../../lib/mealplan.server.js";
import { RecipePicker, type PickedRecipe } from "./RecipePicker.js";

export interface EntryDraft {
  date: string;
  entryType: EntryType;
  kind: "recipe" | "note";
  recipe: PickedRecipe | null;
  title: string;
  text: string;
}

export function draftOf(e: PlanEntryView): EntryDraft {
  return {
    date: e.date,
    entryType: e.entryType,
    kind: e.recipe ? "recipe" : "note",
    recipe: e.recipe,
    title: e.title,
    text: e.text,
  };
}

export function newDraft(date: string, entryType: EntryType = "dinner"): EntryDraft {
  return { date, entryType, kind: "recipe", recipe: null, title: "", text: "" };
}

export function EntryDialog({
  opened,
  onClose,
  groupSlug,
  initial,
  editing,
  onSave,
}: {
  opened: boolean;
  onClose: () => void;
  groupSlug: string;
  initial: EntryDraft;
  /** Editing an existing entry (the title and submit label say so). */
  editing: boolean;
  /** Resolves false to keep the dialog open (the save failed). */
  onSave: (d: EntryDraft) => Promise<boolean>;
}) {
  const t = useT("planner");
  const tc = useT("common");
  const [d, setD] = useState<EntryDraft>(initial);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (opened) {
      setD(initial);
      setTried(false);
    }
    // A new draft each time it opens; `initial` is a fresh object on every render of the parent.
  }, [opened]);

  const set = <K extends keyof EntryDraft>(k: K, v: EntryDraft[K]) => setD((x) => ({ ...x, [k]: v }));
  const recipeMissing = d.kind === "recipe" && !d.recipe;
  const titleMissing = d.kind === "note" && !d.title.trim();
  const dateBad = !isPlanDate(d.date);

  return (
    <AppDialog
      opened={opened}
      onClose={onClose}
      title={editing ? t("entry.editTitle") : t("entry.addTitle")}
      submitLabel={editing ? tc("actions.save") : t("entry.add")}
      data-testid="entry-dialog"
      onSubmit={async () => {
        setTried(true);
        if (recipeMissing || titleMissing || dateBad) return false;
        return onSave(d);
      }}
    >
      <Stack gap="sm">
        <SegmentedControl
          aria-label={t("entry.kind")}
          value={d.kind}
          onChange={(v) => set("kind", v as EntryDraft["kind"])}
          data={[
            { value: "recipe", label: t("entry.recipe") },
            { value: "note", label: t("entry.note") },
          ]}
          data-testid="entry-kind"
        />
        <TextInput
          type="date"
          label={t("entry.date")}
          value={d.date}
          onChange={(e) => set("date", e.currentTarget.value)}
          error={tried && dateBad ? tc("validation.required") : undefined}
          withAsterisk
          data-testid="entry-date"
        />
        <Select
          label={t("entry.type")}
          data={ENTRY_TYPES.map((v) => ({ value: v, label: t(`types.${v}`) }))}
          value={d.entryType}
          onChange={(v) => v && set("entryType", v as EntryType)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          data-testid="entry-type"
        />
        {d.kind === "recipe" ? (
          <RecipePicker
            groupSlug={groupSlug}
            value={d.recipe}
            onChange={(r) => set("recipe", r)}
            label={t("entry.recipe")}
            error={tried && recipeMissing ? t("entry.recipeRequired") : undefined}
          />
        ) : (
          <>
            <TextInput
              label={t("entry.title")}
              value={d.title}
              onChange={(e) => set("title", e.currentTarget.value)}
              error={tried && titleMissing ? tc("validation.required") : undefined}
              withAsterisk
              maxLength={1000}
              data-testid="entry-title"
            />
            <Textarea
              label={t("entry.text")}
              value={d.text}
              onChange={(e) => set("text", e.currentTarget.value)}
              autosize
              minRows={2}
              maxRows={8}
              data-testid="entry-text"
            />
          </>
        )}
      </Stack>
    </AppDialog>
  );
}
