/**
 * /household/mealplan/planner/view (spec §2): the household's meal plan, one card per day from the
 * household's first day of week, as many days as the reader chose (a browser preference, default 7).
 * Add a recipe by search or a note, a random recipe by the plan rules, edit, move (drag, or the entry
 * menu), delete; page through weeks; put the recipes of the days shown on a shopping list. The action is
 * also where the recipe page's "Add to meal plan" posts.
 */
import { useCallback, useEffect, useState } from "react";
import type { LinksFunction, MetaFunction } from "react-router";
import { Link, useLoaderData, useNavigate } from "react-router";
import { ActionIcon, Button, Group, Select, Title, Tooltip } from "@mantine/core";
import { EntryDialog, draftOf, newDraft, type EntryDraft } from "../components/mealplan/EntryDialog.js";
import { PlanToListDialog, type PlannedRecipe } from "../components/mealplan/PlanToListDialog.js";
import { CartIcon } from "../components/shopping/icons.js";
import { PlannerDays, type PlannerHandlers } from "../components/mealplan/PlannerDays.js";
import { CalendarIcon, RulesIcon } from "../components/mealplan/icons.js";
import {
  PLANNER_PATH,
  RULES_PATH,
  usePlanAction,
  type PlanResult,
} from "../components/mealplan/use-plan-action.js";
import { ChevronLeftIcon, ChevronRightIcon } from "../components/recipe/icons.js";
import { coreCall } from "../lib/errors.server.js";
import { metaT, useLanguage, useT } from "../lib/i18n.js";
import {
  clampDays,
  formatPlanRange,
  loadDaysPref,
  localDate,
  saveDaysPref,
  shiftStart,
  startOfWeek,
  type EntryType,
} from "../lib/mealplan.js";
import { loadPlanner, runPlannerIntent, type PlanEntryView } from "../lib/mealplan.server.js";
import { requireUserActor } from "../lib/session.server.js";
import { toast } from "../lib/toast.js";
import plannerStyles from "../styles/planner.css?url";
import type { ActionArgs, LoaderArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(plannerStyles)];

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaT(matches, "planner")("title")} | ${metaT(matches)("appName")}` },
];

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  return coreCall(() => loadPlanner(context, actor, new URL(request.url)));
}

export async function action({ request, context }: ActionArgs) {
  const actor = await requireUserActor(request, context);
  return runPlannerIntent(context, actor, await request.formData());
}

function rangeLabel(days: string[], lang: string): string {
  const opts = { day: "numeric", month: "short", year: "numeric" } as const;
  return formatPlanRange(days[0], days[days.length - 1], lang, opts);
}

/** The day counts offered; any 1..31 in the address works too. */
const DAY_CHOICES = [1, 2, 3, 4, 5, 6, 7, 10, 14, 21, 28];

type Editing = { id: number | null; draft: EntryDraft } | null;

export default function Planner() {
  const data = useLoaderData<typeof loader>();
  const t = useT("planner");
  const { lang } = useLanguage();
  const navigate = useNavigate();
  const { call } = usePlanAction(PLANNER_PATH);
  const [editing, setEditing] = useState<Editing>(null);
  const [toList, setToList] = useState(false);
  // "Today" is the reader's day: the server only knows UTC, so the first render uses the loader's week.
  const [today, setToday] = useState<string>("");
  const count = data.days.length;

  const go = useCallback(
    (start: string, days: number, replace = false) =>
      navigate(`${PLANNER_PATH}?start=${start}&days=${days}`, { replace, preventScrollReset: true }),
    [navigate],
  );

  useEffect(() => {
    const mine = localDate();
    setToday(mine);
    const start = data.explicitStart ? data.start : startOfWeek(mine, data.firstDayOfWeek);
    const days = data.explicitDays ? count : loadDaysPref();
    if (start !== data.start || days !== count) go(start, days, true);
  }, [data.explicitStart, data.explicitDays, data.start, data.firstDayOfWeek, count, go]);

  const report = (r: PlanResult, done: string) => {
    if (r.ok) toast.success(done);
    else if (r.intent === "random" && r.error === "notFound") toast.error(t("toast.noMatch"));
    else toast.error(r.message ? `${t("toast.failed")}: ${r.message}` : t("toast.failed"));
    return r.ok;
  };

  const handlers: PlannerHandlers = {
    onAdd: (date) => setEditing({ id: null, draft: newDraft(date) }),
    onEdit: (e: PlanEntryView) => setEditing({ id: e.id, draft: draftOf(e) }),
    onMove: (e, date) =>
      void call("move", { id: String(e.id), date }).then((r) => report(r, t("toast.moved"))),
    onDelete: (e) => void call("delete", { id: String(e.id) }).then((r) => report(r, t("toast.deleted"))),
    onRandom: (date, type: EntryType) =>
      void call("random", { date, entryType: type }).then((r) => report(r, t("toast.randomAdded"))),
  };

  const fieldsOf = (d: EntryDraft) => ({
    date: d.date,
    entryType: d.entryType,
    recipeId: d.kind === "recipe" ? (d.recipe?.id ?? "") : "",
    title: d.kind === "note" ? d.title : "",
    text: d.kind === "note" ? d.text : "",
  });

  const save = async (d: EntryDraft): Promise<boolean> => {
    const fields = fieldsOf(d);
    // With the entry as the dialog opened it: what someone else changed meanwhile (a move to another
    // day) stays where the dialog left the field alone.
    const r = editing?.id
      ? await call("update", {
          id: String(editing.id),
          ...fields,
          base: JSON.stringify(fieldsOf(editing.draft)),
        })
      : await call("create", fields);
    return report(r, editing?.id ? t("toast.updated") : t("toast.added"));
  };

  const addToList = async (
    list: { id: string; name: string },
    recipes: PlannedRecipe[],
  ): Promise<boolean> => {
    const r = await call("toList", { listId: list.id, recipes: JSON.stringify(recipes) });
    if (!r.ok) {
      toast.error(r.message ? `${t("toList.failed")}: ${r.message}` : t("toList.failed"));
      return false;
    }
    toast.success(t("toList.added", { count: recipes.reduce((n, x) => n + x.count, 0), name: list.name }));
    return true;
  };

  const setDays = (v: string | number) => {
    const n = clampDays(v);
    if (n === count) return;
    saveDaysPref(n);
    go(data.start, n);
  };

  return (
    <div className="page planner">
      <header className="page__header planner__header">
        <div>
          <Title order={1} className="page__title">
            {t("title")}
          </Title>
          <p className="page__subtitle" data-testid="plan-range">
            {rangeLabel(data.days, lang)}
          </p>
        </div>
        <Group gap="xs" className="planner__tools" wrap="wrap">
          <Tooltip label={count <= 7 ? t("previousWeek") : t("previousDays", { count })}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={count <= 7 ? t("previousWeek") : t("previousDays", { count })}
              onClick={() => go(shiftStart(data.start, count, -1), count)}
              data-testid="plan-previous"
            >
              <ChevronLeftIcon />
            </ActionIcon>
          </Tooltip>
          <Button
            variant="default"
            leftSection={<CalendarIcon />}
            onClick={() => go(startOfWeek(today || localDate(), data.firstDayOfWeek), count)}
            data-testid="plan-today"
          >
            {t("thisWeek")}
          </Button>
          <Tooltip label={count <= 7 ? t("nextWeek") : t("nextDays", { count })}>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label={count <= 7 ? t("nextWeek") : t("nextDays", { count })}
              onClick={() => go(shiftStart(data.start, count, 1), count)}
              data-testid="plan-next"
            >
              <ChevronRightIcon />
            </ActionIcon>
          </Tooltip>
          <Select
            label={t("numberOfDays")}
            value={String(count)}
            data={
              DAY_CHOICES.includes(count)
                ? DAY_CHOICES.map(String)
                : [...DAY_CHOICES, count].sort((a, b) => a - b).map(String)
            }
            onChange={(v) => v && setDays(v)}
            allowDeselect={false}
            w={96}
            size="sm"
            className="planner__days-input"
            data-testid="plan-days-count"
          />
          <Button component={Link} to={RULES_PATH} variant="subtle" leftSection={<RulesIcon />}>
            {t("rules.link")}
          </Button>
          <Button
            variant="subtle"
            leftSection={<CartIcon />}
            onClick={() => setToList(true)}
            data-testid="plan-to-list"
          >
            {t("toList.open")}
          </Button>
        </Group>
      </header>
      <PlannerDays
        days={data.days}
        today={today}
        entries={data.entries}
        groupSlug={data.groupSlug}
        handlers={handlers}
      />
      <PlanToListDialog
        opened={toList}
        onClose={() => setToList(false)}
        entries={data.entries}
        today={today}
        onAdd={addToList}
      />
      <EntryDialog
        opened={editing !== null}
        onClose={() => setEditing(null)}
        groupSlug={data.groupSlug}
        initial={editing?.draft ?? newDraft(data.start)}
        editing={!!editing?.id}
        onSave={save}
      />
    </div>
  );
}
