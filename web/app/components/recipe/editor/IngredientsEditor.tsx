/**
 * Ingredients in the form editor: amount, unit, food and note per row (only the note when the recipe
 * keeps ingredients as plain text), a section title that starts a section at a row, drag to reorder.
 * Units and foods are picked from the group's names or typed; core adds a new name to the vocabulary.
 */
import { useEffect, useState } from "react";
import { ActionIcon, Autocomplete, Button, Group, TextInput, Tooltip } from "@mantine/core";
import { useT } from "../../../lib/i18n.js";
import { ParseIngredients } from "./ParseIngredients.js";
import {
  amountText,
  ingredientLabel,
  ingredientsOf,
  moveItem,
  namedRef,
  newIngredient,
  parseAmount,
  removeIngredient,
  type Draft,
  type DraftIngredient,
} from "../../../lib/recipe-edit.js";
import { HeadingIcon, PlusIcon, TrashIcon } from "../icons.js";
import { SortableList, SortableRow } from "./SortableList.js";

function AmountInput({
  value,
  onChange,
  label,
}: {
  value: number | null;
  onChange: (q: number | null) => void;
  label: string;
}) {
  const t = useT("recipe");
  const [text, setText] = useState(amountText(value));
  // A change from outside (parse ingredients) shows; what the person is typing is left alone.
  useEffect(() => {
    const typed = parseAmount(text);
    const same = typed === value || (typed !== null && value !== null && Math.abs(typed - value) < 1e-9);
    if (!same) setText(amountText(value));
  }, [value]); // only when the value changes
  const parsed = parseAmount(text);
  const bad = parsed !== null && Number.isNaN(parsed);
  return (
    <TextInput
      className="ing-row__amount"
      aria-label={label}
      placeholder={label}
      value={text}
      inputMode="decimal"
      error={bad ? t("edit.amountInvalid") : undefined}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const q = parseAmount(next);
        if (q === null || !Number.isNaN(q)) onChange(q);
      }}
    />
  );
}

/** A typed unit or food the group does not have yet: saving the recipe adds it (core creates it). */
const isNew = (name: string | undefined, known: string[]) =>
  !!name?.trim() && !known.some((k) => k.toLowerCase() === name.trim().toLowerCase());

function NewMark({ kind }: { kind: "unit" | "food" }) {
  const t = useT("create");
  const label = t(kind === "unit" ? "parse.newUnit" : "parse.newFood");
  return (
    <span className="new-mark" title={label} aria-label={label} role="img" data-testid={`new-${kind}`}>
      +
    </span>
  );
}

export interface IngredientsEditorProps {
  draft: Draft;
  onChange: (d: Draft) => void;
  units: string[];
  foods: string[];
}

export function IngredientsEditor({ draft, onChange, units, foods }: IngredientsEditorProps) {
  const t = useT("recipe");
  const items = ingredientsOf(draft);
  const plainText = Boolean((draft.settings as { disableAmount?: boolean } | undefined)?.disableAmount);
  const set = (list: DraftIngredient[]) => onChange({ ...draft, recipeIngredient: list });
  const patch = (i: number, p: Partial<DraftIngredient>) =>
    set(items.map((it, j) => (j === i ? { ...it, ...p } : it)));

  return (
    <section className="editor-section" aria-labelledby="edit-ingredients">
      <h2 id="edit-ingredients">{t("edit.ingredients")}</h2>
      <SortableList
        ids={items.map((i) => i.referenceId)}
        names={items.map(ingredientLabel)}
        onMove={(a, b) => set(moveItem(items, a, b))}
        className="edit-rows"
      >
        {items.map((ing, i) => {
          // Every row has the same buttons: their names say which row they act on.
          const row = t("edit.ingredientRow", { n: i + 1, text: ingredientLabel(ing) });
          return (
            <SortableRow key={ing.referenceId} id={ing.referenceId} label={row} className="edit-row ing-row">
              {(handle) => (
                <>
                  {ing.title !== null && ing.title !== undefined ? (
                    <Group gap="xs" wrap="nowrap" className="edit-row__section">
                      <TextInput
                        className="grow"
                        aria-label={t("edit.sectionTitle")}
                        placeholder={t("edit.sectionTitle")}
                        value={ing.title}
                        onChange={(e) => patch(i, { title: e.currentTarget.value })}
                        data-testid="ingredient-section"
                      />
                      <Tooltip label={t("edit.removeSection")}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t("edit.removeSectionAt", { row })}
                          onClick={() => patch(i, { title: null })}
                        >
                          <HeadingIcon />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  ) : null}
                  <Group gap="xs" wrap="nowrap" align="flex-start" className="edit-row__main">
                    {handle}
                    {plainText ? null : (
                      <>
                        <AmountInput
                          value={ing.quantity}
                          label={t("edit.amount")}
                          onChange={(quantity) => patch(i, { quantity })}
                        />
                        <Autocomplete
                          className="ing-row__unit"
                          aria-label={t("edit.unit")}
                          placeholder={t("edit.unit")}
                          data={units}
                          limit={20}
                          value={ing.unit?.name ?? ""}
                          onChange={(v) => patch(i, { unit: namedRef(ing.unit, v) })}
                          rightSection={isNew(ing.unit?.name, units) ? <NewMark kind="unit" /> : null}
                        />
                        <Autocomplete
                          className="ing-row__food"
                          aria-label={t("edit.food")}
                          placeholder={t("edit.food")}
                          data={foods}
                          limit={20}
                          value={ing.food?.name ?? ""}
                          onChange={(v) => patch(i, { food: namedRef(ing.food, v) })}
                          rightSection={isNew(ing.food?.name, foods) ? <NewMark kind="food" /> : null}
                        />
                      </>
                    )}
                    <TextInput
                      className="grow"
                      aria-label={t("edit.note")}
                      placeholder={t("edit.note")}
                      value={ing.note ?? ""}
                      onChange={(e) => patch(i, { note: e.currentTarget.value })}
                      data-testid="ingredient-note"
                    />
                    {ing.title === null || ing.title === undefined ? (
                      <Tooltip label={t("edit.addSection")}>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          aria-label={t("edit.addSectionAt", { row })}
                          onClick={() => patch(i, { title: "" })}
                        >
                          <HeadingIcon />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    <Tooltip label={t("edit.remove")}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t("edit.removeRow", { row })}
                        onClick={() => onChange(removeIngredient(draft, ing.referenceId))}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </>
              )}
            </SortableRow>
          );
        })}
      </SortableList>
      <Group gap="sm" wrap="wrap">
        <Button
          variant="light"
          leftSection={<PlusIcon />}
          onClick={() => set([...items, newIngredient()])}
          data-testid="add-ingredient"
        >
          {t("edit.addIngredient")}
        </Button>
        {plainText ? null : <ParseIngredients draft={draft} onChange={onChange} />}
      </Group>
    </section>
  );
}
