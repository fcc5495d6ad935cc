/**
 * An item's fields (quantity, unit, food, note, label) with the group's foods and units as
 * suggestions, used by the add form and by the edit dialog. A food or unit typed that the group does
 * not know stays text: it goes into the note, so nothing typed is lost.
 */
import { useEffect, useMemo, useState } from "react";
import { Autocomplete, Button, NumberInput, Select, TextInput } from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { useT } from "../../lib/i18n.js";
import type { ListItem, VocabIndex, Vocabulary } from "../../lib/shopping/types.js";
import { draftOf, type ItemDraft } from "../../lib/shopping/fields.js";

export { itemFieldsOf, type ItemDraft } from "../../lib/shopping/fields.js";

function Fields({
  draft,
  onChange,
  vocabulary,
  compact = false,
}: {
  draft: ItemDraft;
  onChange: (d: ItemDraft) => void;
  vocabulary: Vocabulary;
  compact?: boolean;
}) {
  const t = useT("shopping");
  const foods = useMemo(() => [...new Set(vocabulary.foods.map((f) => f.name))].sort(), [vocabulary]);
  const units = useMemo(() => [...new Set(vocabulary.units.map((u) => u.name))].sort(), [vocabulary]);
  const labels = useMemo(() => vocabulary.labels.map((l) => ({ value: l.id, label: l.name })), [vocabulary]);
  const set = (patch: Partial<ItemDraft>) => onChange({ ...draft, ...patch });
  return (
    <div className={compact ? "item-fields item-fields--compact" : "item-fields"}>
      <NumberInput
        className="item-fields__quantity"
        label={t("fields.quantity")}
        value={draft.quantity}
        min={0}
        // The server's own bound (core/shopping/shopping-service.ts MAX_QUANTITY): past it, an item was
        // refused after it had appeared, and then vanished.
        max={1_000_000_000}
        clampBehavior="strict"
        step={1}
        decimalScale={3}
        onChange={(v) => set({ quantity: typeof v === "number" ? v : Number(v) || 0 })}
        data-testid="item-quantity"
      />
      <Autocomplete
        className="item-fields__unit"
        label={t("fields.unit")}
        value={draft.unit}
        onChange={(v) => set({ unit: v })}
        data={units}
        limit={8}
        data-testid="item-unit"
      />
      <Autocomplete
        className="item-fields__food"
        label={t("fields.food")}
        placeholder={compact ? t("add.placeholder") : undefined}
        value={draft.food}
        onChange={(v) => set({ food: v })}
        data={foods}
        limit={8}
        data-testid="item-food"
      />
      <TextInput
        className="item-fields__note"
        label={t("fields.note")}
        value={draft.note}
        onChange={(e) => set({ note: e.currentTarget.value })}
        data-testid="item-note"
      />
      {compact ? null : (
        <Select
          label={t("fields.label")}
          value={draft.labelId}
          onChange={(v) => set({ labelId: v })}
          data={labels}
          clearable
          searchable
          data-testid="item-label"
        />
      )}
    </div>
  );
}

export function ItemEditor({
  item,
  vocabulary,
  vocab,
  onClose,
  onSave,
  onDelete,
}: {
  item: ListItem | null;
  vocabulary: Vocabulary;
  vocab: VocabIndex;
  onClose: () => void;
  onSave: (d: ItemDraft) => void;
  onDelete: () => void;
}) {
  const t = useT("shopping");
  const tc = useT("common");
  const [draft, setDraft] = useState<ItemDraft | null>(null);
  useEffect(() => {
    setDraft(item ? draftOf(item, vocab) : null);
  }, [item, vocab]);
  return (
    <AppDialog
      opened={item !== null}
      onClose={onClose}
      title={t("items.editTitle")}
      submitLabel={tc("actions.save")}
      onSubmit={() => {
        if (draft) onSave(draft);
      }}
      actions={
        <Button
          variant="subtle"
          color="red"
          onClick={() => {
            onDelete();
            onClose();
          }}
        >
          {tc("actions.delete")}
        </Button>
      }
      data-testid="item-dialog"
    >
      {draft ? <Fields draft={draft} onChange={setDraft} vocabulary={vocabulary} /> : null}
    </AppDialog>
  );
}
ItemEditor.Fields = Fields;
