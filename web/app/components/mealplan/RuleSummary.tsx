/**
 * A rule's filter in the rules list: its conditions in words ("Tags is all of Quick, Vegan"), or the
 * filter text itself when the builder cannot show it.
 */
import { Text } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { isOrganizerField, readFilter, type Condition } from "../../lib/rule-filter.js";
import { opKey, useOrganizerName, type RuleChoices } from "./RuleConditions.js";

export function RuleSummary({ filter, choices }: { filter: string; choices: RuleChoices }) {
  const t = useT("planner");
  const nameOf = useOrganizerName();
  if (!filter.trim())
    return (
      <Text className="plan-rule__summary" c="dimmed">
        {t("rules.noFilter")}
      </Text>
    );
  const read = readFilter(filter);
  if (!read.ok)
    return (
      <Text className="plan-rule__filter" dir="ltr" data-testid="rule-raw">
        {filter}
      </Text>
    );

  const values = (c: Condition): string => {
    if (isOrganizerField(c.field)) {
      const field = c.field;
      return c.values.map((id) => nameOf(field, id, choices[field])).join(", ");
    }
    if (c.field === "rating") return `${c.values[0]} ★`;
    return c.values[0] ?? "";
  };
  return (
    <ul className="plan-rule__conditions" data-testid="rule-summary">
      {read.conditions.map((c, i) => (
        <li key={i}>
          {i > 0 ? (
            <Text span c="dimmed">
              {t("rules.builder.and")}{" "}
            </Text>
          ) : null}
          <Text span fw={600}>
            {t(`rules.builder.fields.${c.field}`)}
          </Text>{" "}
          {t(`rules.builder.ops.${opKey(c.field, c.op)}`)} <bdi>{values(c)}</bdi>
        </li>
      ))}
    </ul>
  );
}
