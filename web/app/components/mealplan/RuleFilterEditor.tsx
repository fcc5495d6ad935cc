/**
 * A plan rule's recipe filter: built from conditions, or, with "Edit as text", the query filter itself.
 * A stored filter the builder cannot show (an OR, parentheses, other fields) opens as text with the
 * reason, and is saved exactly as written unless the person edits it or starts over. The text only
 * changes when the conditions do, so opening and saving a rule never rewrites its filter. Below, a
 * live count of the recipes the filter selects.
 */
import { useState } from "react";
import { Alert, Button, Group, Stack, Switch, Text, Textarea } from "@mantine/core";
import { useT } from "../../lib/i18n.js";
import { buildFilter, readFilter, type Condition } from "../../lib/rule-filter.js";
import { RuleConditions, type RuleChoices } from "./RuleConditions.js";
import { useRecipeCount, type RecipeCount } from "./use-recipe-count.js";

export interface RuleFilterEditorProps {
  text: string;
  onText: (text: string) => void;
  choices: RuleChoices;
  /** The save's refusal (core's message), shown beside the filter. */
  error: string | null;
}

export function RuleFilterEditor({ text, onText, choices, error }: RuleFilterEditorProps) {
  const t = useT("planner");
  // Read once when the dialog opens; afterwards the conditions are the person's.
  const [opening] = useState(() => readFilter(text));
  const [conditions, setConditions] = useState<Condition[]>(opening.ok ? opening.conditions : []);
  const [asText, setAsText] = useState(!opening.ok);
  const count = useRecipeCount(text, true);

  const edit = (next: Condition[]) => {
    setConditions(next);
    onText(buildFilter(next));
  };

  const toggle = (on: boolean) => {
    if (on) return setAsText(true);
    const read = readFilter(text);
    if (!read.ok) return;
    setConditions(read.conditions);
    setAsText(false);
  };

  // Why the text cannot go back to the builder, while it is shown as text.
  const read = asText && text.trim() !== "" ? readFilter(text) : null;
  const unfit = read && !read.ok ? read.reason : null;

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={600} size="sm" id="rule-filter-label">
          {t("rules.filter")}
        </Text>
        <Switch
          size="sm"
          label={t("rules.builder.asText")}
          checked={asText}
          disabled={unfit !== null}
          onChange={(e) => toggle(e.currentTarget.checked)}
          data-testid="rule-advanced"
        />
      </Group>
      {error && !asText ? (
        <Alert color="red" data-testid="rule-error">
          {error}
        </Alert>
      ) : null}
      {asText ? (
        <>
          {unfit ? (
            <Alert color="yellow" data-testid="rule-unfit" data-reason={unfit}>
              <Stack gap="xs">
                <Text size="sm">
                  {t(`rules.builder.unfit.${unfit}`)} {t("rules.builder.kept")}
                </Text>
                <Group>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => {
                      setConditions([]);
                      setAsText(false);
                      onText("");
                    }}
                    data-testid="rule-start-over"
                  >
                    {t("rules.builder.startOver")}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : null}
          <Textarea
            aria-labelledby="rule-filter-label"
            description={t("rules.filterHelp")}
            placeholder='tags.name CONTAINS ALL ["Quick"]'
            value={text}
            onChange={(e) => onText(e.currentTarget.value)}
            error={error}
            autosize
            minRows={2}
            styles={{ input: { fontFamily: "var(--mono)" } }}
            dir="ltr"
            data-testid="rule-filter"
          />
        </>
      ) : (
        <RuleConditions conditions={conditions} onChange={edit} choices={choices} />
      )}
      <CountLine count={count} />
    </Stack>
  );
}

function CountLine({ count }: { count: RecipeCount }) {
  const t = useT("planner");
  let body: { text: string; color?: string };
  switch (count.state) {
    case "loading":
      body = { text: t("rules.builder.counting") };
      break;
    case "count":
      body =
        count.count === 0
          ? { text: t("rules.builder.noMatch"), color: "orange" }
          : { text: t("rules.builder.matches", { count: count.count }) };
      break;
    case "invalid":
      body = {
        text: `${t("rules.builder.invalid")}${count.message ? `: ${count.message}` : ""}`,
        color: "red",
      };
      break;
    default:
      body = { text: t("rules.builder.countFailed") };
  }
  return (
    <Text
      size="sm"
      c={body.color ?? "dimmed"}
      aria-live="polite"
      data-testid="rule-preview"
      data-state={count.state}
      data-count={count.state === "count" ? count.count : undefined}
    >
      {body.text}
    </Text>
  );
}
