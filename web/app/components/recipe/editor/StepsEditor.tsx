/**
 * Instructions in the form editor: an optional section title, summary and Markdown text per step, the
 * ingredients the step uses (cook mode shows them), drag to reorder.
 */
import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Stack,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from "@mantine/core";
import { useT } from "../../../lib/i18n.js";
import {
  ingredientLabel,
  stepLabel,
  ingredientsOf,
  moveItem,
  newStep,
  stepsOf,
  type Draft,
  type DraftStep,
} from "../../../lib/recipe-edit.js";
import { HeadingIcon, PlusIcon, TrashIcon } from "../icons.js";
import { SortableList, SortableRow } from "./SortableList.js";

export function StepsEditor({ draft, onChange }: { draft: Draft; onChange: (d: Draft) => void }) {
  const t = useT("recipe");
  const steps = stepsOf(draft);
  const choices = ingredientsOf(draft).map((ing) => ({
    value: ing.referenceId,
    label: ingredientLabel(ing),
  }));
  const set = (list: DraftStep[]) => onChange({ ...draft, recipeInstructions: list });
  const patch = (i: number, p: Partial<DraftStep>) =>
    set(steps.map((s, j) => (j === i ? { ...s, ...p } : s)));

  return (
    <section className="editor-section" aria-labelledby="edit-steps">
      <h2 id="edit-steps">{t("edit.instructions")}</h2>
      <SortableList
        ids={steps.map((s) => s.id)}
        names={steps.map((s) => stepLabel(s))}
        onMove={(a, b) => set(moveItem(steps, a, b))}
        className="edit-rows"
      >
        {steps.map((step, i) => {
          // Every row has the same buttons: their names say which step they act on.
          const row = t("edit.stepRow", { n: i + 1, text: stepLabel(step) });
          return (
            <SortableRow key={step.id} id={step.id} label={row} className="edit-row step-row">
              {(handle) => (
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Stack gap={4} align="center">
                    {handle}
                    <Text fw={700} aria-hidden>
                      {i + 1}
                    </Text>
                  </Stack>
                  <Stack gap="xs" className="grow">
                    {step.title !== null && step.title !== undefined ? (
                      <TextInput
                        aria-label={t("edit.stepTitle")}
                        placeholder={t("edit.stepTitle")}
                        value={step.title}
                        onChange={(e) => patch(i, { title: e.currentTarget.value })}
                      />
                    ) : null}
                    <TextInput
                      aria-label={t("edit.stepSummary")}
                      placeholder={t("edit.stepSummary")}
                      value={step.summary ?? ""}
                      onChange={(e) => patch(i, { summary: e.currentTarget.value || null })}
                    />
                    <Textarea
                      aria-label={t("step", { n: i + 1 })}
                      placeholder={t("edit.stepText")}
                      value={step.text ?? ""}
                      autosize
                      minRows={2}
                      onChange={(e) => patch(i, { text: e.currentTarget.value })}
                      data-testid="step-text"
                    />
                    {choices.length ? (
                      <MultiSelect
                        aria-label={t("edit.linkIngredients")}
                        placeholder={t("edit.linkIngredients")}
                        data={choices}
                        value={step.ingredientReferences
                          .map((r) => r.referenceId)
                          .filter((id) => choices.some((c) => c.value === id))}
                        onChange={(ids) =>
                          patch(i, { ingredientReferences: ids.map((referenceId) => ({ referenceId })) })
                        }
                        clearable
                        searchable
                      />
                    ) : null}
                  </Stack>
                  <Stack gap={4}>
                    <Tooltip
                      label={
                        step.title === null || step.title === undefined
                          ? t("edit.addSection")
                          : t("edit.removeSection")
                      }
                    >
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        aria-label={
                          step.title === null || step.title === undefined
                            ? t("edit.addSectionAt", { row })
                            : t("edit.removeSectionAt", { row })
                        }
                        onClick={() =>
                          patch(i, { title: step.title === null || step.title === undefined ? "" : null })
                        }
                      >
                        <HeadingIcon />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t("edit.remove")}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t("edit.removeRow", { row })}
                        onClick={() => set(steps.filter((_, j) => j !== i))}
                      >
                        <TrashIcon />
                      </ActionIcon>
                    </Tooltip>
                  </Stack>
                </Group>
              )}
            </SortableRow>
          );
        })}
      </SortableList>
      <Button
        variant="light"
        leftSection={<PlusIcon />}
        onClick={() => set([...steps, newStep()])}
        data-testid="add-step"
      >
        {t("edit.addStep")}
      </Button>
    </section>
  );
}
