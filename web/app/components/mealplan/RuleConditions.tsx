/**
 * The conditions of a plan rule's recipe filter, one row each: a field, an operator, and the values
 * (organizers from searchable pickers, a rating, a date). Rows combine with AND. An id no organizer
 * has any more (a deleted tag) stays in the row, named and explained as the cookbook editor does, until
 * the person removes it.
 */
import { ActionIcon, Button, Group, MultiSelect, Paper, Select, Stack, Text, TextInput } from "@mantine/core";
import { PlusIcon, TrashIcon } from "../recipe/icons.js";
import { useT } from "../../lib/i18n.js";
import {
  CONDITION_FIELDS,
  FIELD_OPS,
  RATINGS,
  isOrganizerField,
  newCondition,
  organizerPicker,
  withField,
  type Choice,
  type Condition,
  type ConditionField,
  type ConditionOp,
  type OrganizerField,
} from "../../lib/rule-filter.js";

export type RuleChoices = Record<OrganizerField, Choice[]>;

/** The label key of an operator; households read "is one of", as a recipe has one household. */
export function opKey(field: ConditionField, op: ConditionOp): string {
  if (field === "households") return op === "none" ? "notOneOf" : "oneOf";
  return op;
}

const DROPDOWN = { withinPortal: false } as const;
// The "left out until filled in" hint reads after the empty field, not before it.
const BELOW: ("label" | "input" | "description" | "error")[] = ["label", "input", "description", "error"];

/** An organizer's name, or "Deleted tag (1a2b3c4d)" for an id the group has no organizer for. */
export function useOrganizerName(): (
  field: OrganizerField,
  id: string,
  choices: readonly Choice[],
) => string {
  const t = useT("planner");
  return (field, id, choices) =>
    choices.find((o) => o.value === id)?.label ?? t(`rules.builder.deleted.${field}`, { id: id.slice(0, 8) });
}

function OrganizerValues({
  field,
  values,
  choices,
  label,
  onChange,
}: {
  field: OrganizerField;
  values: string[];
  choices: Choice[];
  label: string;
  onChange: (values: string[]) => void;
}) {
  const t = useT("planner");
  const nameOf = useOrganizerName();
  const picker = organizerPicker(choices, values, (id) => nameOf(field, id, choices));
  return (
    <MultiSelect
      aria-label={label}
      placeholder={values.length ? undefined : t("rules.builder.pick")}
      data={picker.data}
      value={values}
      onChange={onChange}
      searchable
      clearable
      hidePickedOptions
      nothingFoundMessage={t("rules.builder.nothingFound")}
      comboboxProps={DROPDOWN}
      description={
        !values.length
          ? t("rules.builder.incomplete")
          : picker.missing.length
            ? t("rules.builder.deletedHint")
            : undefined
      }
      inputWrapperOrder={BELOW}
      data-testid="rule-condition-values"
    />
  );
}

export function RuleConditions({
  conditions,
  onChange,
  choices,
}: {
  conditions: Condition[];
  onChange: (next: Condition[]) => void;
  choices: RuleChoices;
}) {
  const t = useT("planner");
  const set = (i: number, c: Condition) => onChange(conditions.map((x, k) => (k === i ? c : x)));

  return (
    <Stack gap="xs" data-testid="rule-conditions">
      {conditions.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="rule-conditions-empty">
          {t("rules.builder.none")}
        </Text>
      ) : null}
      {conditions.map((c, i) => {
        const n = i + 1;
        const name = (part: string) => `${t("rules.builder.condition", { n })}: ${part}`;
        return (
          <Stack key={i} gap={4}>
            {i > 0 ? (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" aria-hidden>
                {t("rules.builder.and")}
              </Text>
            ) : null}
            <Paper withBorder radius="sm" p="xs" data-testid="rule-condition" data-field={c.field}>
              <Stack gap={6}>
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <Select
                    aria-label={name(t("rules.builder.field"))}
                    data={CONDITION_FIELDS.map((f) => ({ value: f, label: t(`rules.builder.fields.${f}`) }))}
                    value={c.field}
                    onChange={(v) => v && set(i, withField(c, v as ConditionField))}
                    allowDeselect={false}
                    comboboxProps={DROPDOWN}
                    style={{ flex: 1, minWidth: 0 }}
                    data-testid="rule-condition-field"
                  />
                  <Select
                    aria-label={name(t("rules.builder.operator"))}
                    data={FIELD_OPS[c.field].map((op) => ({
                      value: op,
                      label: t(`rules.builder.ops.${opKey(c.field, op)}`),
                    }))}
                    value={c.op}
                    onChange={(v) =>
                      v && set(i, { ...c, op: v as ConditionOp, values: v === "never" ? [] : c.values })
                    }
                    allowDeselect={false}
                    comboboxProps={DROPDOWN}
                    style={{ flex: 1, minWidth: 0 }}
                    data-testid="rule-condition-op"
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t("rules.builder.remove", { n })}
                    onClick={() => onChange(conditions.filter((_, k) => k !== i))}
                    data-testid="rule-condition-remove"
                  >
                    <TrashIcon />
                  </ActionIcon>
                </Group>
                {isOrganizerField(c.field) ? (
                  <OrganizerValues
                    field={c.field}
                    values={c.values}
                    choices={choices[c.field]}
                    label={name(t("rules.builder.values"))}
                    onChange={(values) => set(i, { ...c, values })}
                  />
                ) : c.field === "rating" ? (
                  <Select
                    aria-label={name(t("rules.builder.values"))}
                    data={RATINGS.map((r) => ({ value: r, label: `${r} ★` }))}
                    value={c.values[0] ?? null}
                    onChange={(v) => v && set(i, { ...c, values: [v] })}
                    allowDeselect={false}
                    comboboxProps={DROPDOWN}
                    data-testid="rule-condition-rating"
                  />
                ) : c.op !== "never" ? (
                  <TextInput
                    type="date"
                    aria-label={name(t("rules.builder.values"))}
                    value={c.values[0] ?? ""}
                    onChange={(e) => set(i, { ...c, values: [e.currentTarget.value] })}
                    description={c.values[0] ? undefined : t("rules.builder.incomplete")}
                    inputWrapperOrder={BELOW}
                    data-testid="rule-condition-date"
                  />
                ) : null}
              </Stack>
            </Paper>
          </Stack>
        );
      })}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<PlusIcon />}
          onClick={() => onChange([...conditions, newCondition("tags")])}
          data-testid="rule-condition-add"
        >
          {t("rules.builder.add")}
        </Button>
      </Group>
    </Stack>
  );
}
