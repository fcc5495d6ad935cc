/**
 * /household/mealplan/settings (Mealie's path for the plan rules): list, create, edit and delete the
 * household's meal plan rules. A rule narrows the random recipe for a weekday and an entry type (either
 * may be "any") with a recipe filter built from conditions on the group's organizers, or written as a
 * query filter; core validates the filter and its message shows in the form.
 */
import { useState } from "react";
import type { LinksFunction, MetaFunction } from "react-router";
import { Link, useLoaderData } from "react-router";
import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Text, Title } from "@mantine/core";
import { AppDialog } from "../components/dialog/AppDialog.js";
import { CalendarIcon } from "../components/mealplan/icons.js";
import { RuleFilterEditor } from "../components/mealplan/RuleFilterEditor.js";
import { RuleSummary } from "../components/mealplan/RuleSummary.js";
import { builderChoices } from "../lib/cookbooks.server.js";
import { PLANNER_PATH, RULES_PATH, usePlanAction } from "../components/mealplan/use-plan-action.js";
import { PencilIcon, PlusIcon, TrashIcon } from "../components/recipe/icons.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useT } from "../lib/i18n.js";
import { RULE_DAYS, RULE_TYPES, type RuleDay, type RuleType } from "../lib/mealplan.js";
import { loadRules, runRuleIntent, type PlanRuleView } from "../lib/mealplan.server.js";
import { requireUserActor } from "../lib/session.server.js";
import { toast } from "../lib/toast.js";
import plannerStyles from "../styles/planner.css?url";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(plannerStyles)];

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "planner")("rules.title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const groupSlug = context.larder.directory.groupById(actor.user.groupId)?.slug ?? "";
  return {
    rules: await coreCall(() => loadRules(context, actor)),
    choices: builderChoices(context, actor, groupSlug),
  };
}

export async function action({ request, context }: ActionArgs) {
  const actor = await requireUserActor(request, context);
  return runRuleIntent(context, actor, await request.formData());
}

type Draft = { id: string | null; day: RuleDay; entryType: RuleType; queryFilterString: string };

const emptyDraft = (): Draft => ({ id: null, day: "unset", entryType: "unset", queryFilterString: "" });

export default function PlanRules() {
  const { rules, choices } = useLoaderData<typeof loader>();
  const t = useT("planner");
  const tc = useT("common");
  const { call, busy } = usePlanAction(RULES_PATH);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<PlanRuleView | null>(null);

  const dayLabel = (d: RuleDay) => t(`rules.days.${d}`);
  const typeLabel = (v: RuleType) => (v === "unset" ? t("rules.anyType") : t(`types.${v}`));

  const open = (d: Draft) => {
    setError(null);
    setDraft(d);
  };

  const save = async () => {
    if (!draft) return false;
    const fields = {
      day: draft.day,
      entryType: draft.entryType,
      queryFilterString: draft.queryFilterString,
      ...(draft.id ? { id: draft.id } : {}),
    };
    const r = await call(draft.id ? "update" : "create", fields);
    if (!r.ok) {
      setError(r.message ?? t("toast.failed"));
      return false;
    }
    toast.success(draft.id ? t("rules.updated") : t("rules.created"));
    return true;
  };

  return (
    <div className="page">
      <header className="page__header">
        <div>
          <Title order={1} className="page__title">
            {t("rules.title")}
          </Title>
          <p className="page__subtitle">{t("rules.intro")}</p>
        </div>
        <Group gap="xs">
          <Button component={Link} to={PLANNER_PATH} variant="subtle" leftSection={<CalendarIcon />}>
            {t("title")}
          </Button>
          <Button leftSection={<PlusIcon />} onClick={() => open(emptyDraft())} data-testid="rule-new">
            {t("rules.new")}
          </Button>
        </Group>
      </header>

      <div className="plan-rules">
        {rules.length === 0 ? (
          <Text c="dimmed" data-testid="rules-empty">
            {t("rules.empty")}
          </Text>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
            {rules.map((r) => (
              <Paper component="li" key={r.id} withBorder radius="md" p="sm" data-testid="rule">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Badge variant="light">{dayLabel(r.day)}</Badge>
                      <Badge variant="light" color="gray">
                        {typeLabel(r.entryType)}
                      </Badge>
                    </Group>
                    <RuleSummary filter={r.queryFilterString} choices={choices} />
                  </Stack>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`${t("rules.edit")}: ${dayLabel(r.day)}, ${typeLabel(r.entryType)}`}
                      onClick={() => open({ ...r })}
                      data-testid="rule-edit"
                    >
                      <PencilIcon />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`${t("rules.delete")}: ${dayLabel(r.day)}, ${typeLabel(r.entryType)}`}
                      onClick={() => setRemoving(r)}
                      data-testid="rule-delete"
                    >
                      <TrashIcon />
                    </ActionIcon>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </div>

      <AppDialog
        opened={draft !== null}
        onClose={() => setDraft(null)}
        title={draft?.id ? t("rules.editTitle") : t("rules.newTitle")}
        submitLabel={draft?.id ? tc("actions.save") : tc("actions.create")}
        loading={busy}
        maxWidth={640}
        data-testid="rule-dialog"
        onSubmit={save}
      >
        {draft ? (
          <Stack gap="sm">
            <Select
              label={t("rules.day")}
              data={RULE_DAYS.map((d) => ({ value: d, label: dayLabel(d) }))}
              value={draft.day}
              onChange={(v) => v && setDraft({ ...draft, day: v as RuleDay })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              data-testid="rule-day"
            />
            <Select
              label={t("entry.type")}
              data={RULE_TYPES.map((v) => ({ value: v, label: typeLabel(v) }))}
              value={draft.entryType}
              onChange={(v) => v && setDraft({ ...draft, entryType: v as RuleType })}
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              data-testid="rule-type"
            />
            <RuleFilterEditor
              text={draft.queryFilterString}
              onText={(queryFilterString) => {
                setError(null);
                setDraft((d) => (d ? { ...d, queryFilterString } : d));
              }}
              choices={choices}
              error={error}
            />
          </Stack>
        ) : null}
      </AppDialog>

      <AppDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t("rules.delete")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        data-testid="rule-delete-dialog"
        onSubmit={async () => {
          if (!removing) return;
          const r = await call("delete", { id: removing.id });
          if (r.ok) toast.success(t("rules.deleted"));
          else toast.error(t("toast.failed"));
          return r.ok;
        }}
      >
        <Text>{t("rules.deleteConfirm")}</Text>
      </AppDialog>
    </div>
  );
}
