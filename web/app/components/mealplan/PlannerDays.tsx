/**
 * The planner's days: one card per day with its entries in entry-type order, each day a drop target
 * for entries dragged from another day (a pointer drag; the entry menu's "move" items and the edit
 * dialog's date are the keyboard way). Each day adds an entry or a random recipe by the rules.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "react-router";
import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Text, Title } from "@mantine/core";
import {
  DndContext,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { RecipeImage } from "../RecipeImage.js";
import { useDndAccessibility } from "../../lib/dnd-a11y.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { ENTRY_TYPES, addDays, byDay, formatPlanDate, type EntryType } from "../../lib/mealplan.js";
import type { PlanEntryView } from "../../lib/mealplan.server.js";
import {
  ChevronLeftIcon,
  ChevronRightIcon,
  DotsIcon,
  PencilIcon,
  PlusIcon,
  TrashIcon,
} from "../recipe/icons.js";
import { DiceIcon, NoteIcon } from "./icons.js";

export interface PlannerHandlers {
  onAdd: (date: string) => void;
  onEdit: (e: PlanEntryView) => void;
  onMove: (e: PlanEntryView, date: string) => void;
  onDelete: (e: PlanEntryView) => void;
  onRandom: (date: string, type: EntryType) => void;
}

/** "Monday", "24 Nov" and the full date of a plan date, in the reader's language. */
function dayLabels(date: string, lang: string): { weekday: string; day: string; full: string } {
  return {
    weekday: formatPlanDate(date, lang, { weekday: "long" }),
    day: formatPlanDate(date, lang, { day: "numeric", month: "short" }),
    full: formatPlanDate(date, lang, { dateStyle: "full" }),
  };
}

function EntryCard({
  entry,
  groupSlug,
  handlers,
}: {
  entry: PlanEntryView;
  groupSlug: string;
  handlers: PlannerHandlers;
}) {
  const t = useT("planner");
  const { lang } = useLanguage();
  const { setNodeRef, listeners, isDragging, transform } = useDraggable({ id: entry.id, data: { entry } });
  const name = entry.recipe ? entry.recipe.name : entry.title;
  const style = transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined;
  return (
    <Paper
      ref={setNodeRef}
      component="li"
      withBorder
      radius="md"
      p="xs"
      className={`plan-entry${isDragging ? " plan-entry--dragging" : ""}`}
      style={style}
      data-testid="plan-entry"
      data-entry-id={entry.id}
      data-entry-type={entry.entryType}
      // Only the pointer listeners: the keyboard uses the menu, so the card takes no tab stop of its own.
      {...listeners}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {entry.recipe ? (
          <RecipeImage
            recipeId={entry.recipe.id}
            image={entry.recipe.image}
            size="tiny-original"
            alt={entry.recipe.name}
            className="plan-entry__img"
          />
        ) : (
          <span className="plan-entry__note" aria-hidden>
            <NoteIcon />
          </span>
        )}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Badge size="xs" variant="light" className="plan-entry__type">
            {t(`types.${entry.entryType}`)}
          </Badge>
          {entry.recipe ? (
            <Link
              to={`/g/${encodeURIComponent(groupSlug)}/r/${encodeURIComponent(entry.recipe.slug)}`}
              className="plan-entry__name"
              data-testid="plan-entry-name"
            >
              {entry.recipe.name}
            </Link>
          ) : (
            <Text fw={600} size="sm" className="plan-entry__name" data-testid="plan-entry-name">
              {entry.title}
            </Text>
          )}
          {entry.text ? (
            <Text size="xs" c="dimmed" className="plan-entry__text">
              {entry.text}
            </Text>
          ) : null}
        </Stack>
        <Menu position="bottom-end" withinPortal shadow="md" width={220}>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={t("entry.menu", { name })}
              data-testid="plan-entry-menu"
              // A click on the menu must not start a drag of the card.
              onPointerDown={(e) => e.stopPropagation()}
            >
              <DotsIcon />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<PencilIcon />} onClick={() => handlers.onEdit(entry)}>
              {t("entry.edit")}
            </Menu.Item>
            <Menu.Item
              leftSection={<ChevronLeftIcon />}
              onClick={() => handlers.onMove(entry, addDays(entry.date, -1))}
            >
              {t("entry.movePrevious", { day: dayLabels(addDays(entry.date, -1), lang).weekday })}
            </Menu.Item>
            <Menu.Item
              leftSection={<ChevronRightIcon />}
              onClick={() => handlers.onMove(entry, addDays(entry.date, 1))}
            >
              {t("entry.moveNext", { day: dayLabels(addDays(entry.date, 1), lang).weekday })}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item leftSection={<TrashIcon />} color="red" onClick={() => handlers.onDelete(entry)}>
              {t("entry.delete")}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Paper>
  );
}

function DayCard({
  date,
  today,
  entries,
  groupSlug,
  handlers,
}: {
  date: string;
  today: string;
  entries: PlanEntryView[];
  groupSlug: string;
  handlers: PlannerHandlers;
}) {
  const t = useT("planner");
  const { lang } = useLanguage();
  const { setNodeRef, isOver } = useDroppable({ id: date });
  const label = dayLabels(date, lang);
  const headingId = `plan-day-${date}`;
  return (
    <section
      ref={setNodeRef}
      className={`plan-day${isOver ? " plan-day--over" : ""}${date === today ? " plan-day--today" : ""}`}
      aria-labelledby={headingId}
      data-testid="plan-day"
      data-date={date}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" className="plan-day__head">
        <Title order={2} className="plan-day__title" id={headingId}>
          <span className="plan-day__weekday">{label.weekday}</span>{" "}
          <span className="plan-day__date">{label.day}</span>
        </Title>
        {date === today ? (
          <Badge size="sm" variant="filled" style={{ flex: "none" }}>
            {t("today")}
          </Badge>
        ) : null}
      </Group>
      {entries.length ? (
        <ul className="plan-day__entries">
          {entries.map((e) => (
            <EntryCard key={e.id} entry={e} groupSlug={groupSlug} handlers={handlers} />
          ))}
        </ul>
      ) : (
        <Text size="sm" c="dimmed" className="plan-day__empty">
          {t("emptyDay")}
        </Text>
      )}
      {/* Longer words (Hinzufügen, Willekeurig) put the second button on a line of its own rather than
          squeezing both until their labels are cut off. */}
      <Group gap="xs" mt="auto" pt="xs" wrap="wrap">
        <Button
          size="xs"
          variant="light"
          leftSection={<PlusIcon />}
          onClick={() => handlers.onAdd(date)}
          aria-label={t("addTo", { day: label.full })}
          data-testid="plan-day-add"
        >
          {t("add")}
        </Button>
        <Menu position="bottom-start" withinPortal shadow="md" width={200}>
          <Menu.Target>
            <Button
              size="xs"
              variant="subtle"
              leftSection={<DiceIcon />}
              aria-label={t("randomFor", { day: label.full })}
              data-testid="plan-day-random"
            >
              {t("random")}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t("randomLabel")}</Menu.Label>
            {ENTRY_TYPES.map((type) => (
              <Menu.Item key={type} onClick={() => handlers.onRandom(date, type)}>
                {t(`types.${type}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </section>
  );
}

export function PlannerDays({
  days,
  today,
  entries,
  groupSlug,
  handlers,
}: {
  days: string[];
  today: string;
  entries: PlanEntryView[];
  groupSlug: string;
  handlers: PlannerHandlers;
}) {
  // A dropped entry shows in its new day at once; the reloaded plan replaces this.
  const [moved, setMoved] = useState<Record<number, string>>({});
  useEffect(() => setMoved({}), [entries]);
  const shown = useMemo(
    () => entries.map((e) => (moved[e.id] ? { ...e, date: moved[e.id] } : e)),
    [entries, moved],
  );
  const columns = byDay(days, shown);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }));
  const { lang } = useLanguage();
  const nameOf = useCallback(
    (id: UniqueIdentifier) => {
      const e = entries.find((x) => x.id === id);
      return (e?.recipe ? e.recipe.name : e?.title) ?? "";
    },
    [entries],
  );
  const dayOf = useCallback((date: UniqueIdentifier) => dayLabels(String(date), lang).full, [lang]);
  const accessibility = useDndAccessibility(nameOf, dayOf);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const entry = (active.data.current as { entry?: PlanEntryView } | undefined)?.entry;
    const date = over ? String(over.id) : null;
    if (!entry || !date || date === (moved[entry.id] ?? entry.date)) return;
    setMoved((m) => ({ ...m, [entry.id]: date }));
    handlers.onMove(entry, date);
  };
  return (
    <DndContext id="plan-days" sensors={sensors} onDragEnd={onDragEnd} accessibility={accessibility}>
      <div className="plan-days" data-testid="plan-days">
        {days.map((d) => (
          <DayCard
            key={d}
            date={d}
            today={today}
            entries={columns.get(d) ?? []}
            groupSlug={groupSlug}
            handlers={handlers}
          />
        ))}
      </div>
    </DndContext>
  );
}
