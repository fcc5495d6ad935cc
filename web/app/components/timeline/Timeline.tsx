/**
 * A recipe timeline: the events, filtered by type and ordered as the reader prefers (kept in the
 * browser), with an "add event" dialog that takes a photo, and edit and delete on the reader's own
 * events (or any, for an admin). Used by the group's timeline page and by the recipe page's dialog;
 * writes go to the timeline page's action.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  FileInput,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Textarea,
} from "@mantine/core";
import { AppDialog } from "../dialog/AppDialog.js";
import { RecipePicker, type PickedRecipe } from "../mealplan/RecipePicker.js";
import { ImageIcon } from "../mealplan/icons.js";
import { DotsIcon, PencilIcon, PlusIcon, TrashIcon } from "../recipe/icons.js";
import { useLanguage, useT } from "../../lib/i18n.js";
import { failedText, toast } from "../../lib/toast.js";
import { useHydrated } from "../../lib/use-hydrated.js";
import {
  DEFAULT_TIMELINE_PREFS,
  EVENT_TYPES,
  fromLocalInput,
  loadTimelinePrefs,
  saveTimelinePrefs,
  toLocalInput,
  visibleEvents,
  type TimelinePrefs,
} from "../../lib/timeline.js";
import type { TimelineEventView, TimelineResult } from "../../lib/timeline.server.js";

export function timelinePath(groupSlug: string): string {
  return `/g/${encodeURIComponent(groupSlug)}/recipes/timeline`;
}

function timelineImageUrl(e: TimelineEventView): string {
  return `/api/media/recipes/${encodeURIComponent(e.recipe.id)}/images/timeline/${encodeURIComponent(e.id)}/min-original.webp`;
}

/** Posts to the timeline action (multipart when a photo goes along) and resolves with its result. */
function useTimelineAction(action: string) {
  const fetcher = useFetcher<TimelineResult>();
  const seen = useRef<unknown>(null);
  const waiting = useRef<((r: TimelineResult) => void) | null>(null);
  // After every commit, as in use-recipe-intent.ts: fetcher data is not React state.
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === seen.current) return;
    seen.current = fetcher.data;
    waiting.current?.(fetcher.data);
    waiting.current = null;
  });
  const call = (fields: Record<string, string>, photo?: File | null) =>
    new Promise<TimelineResult>((resolve) => {
      waiting.current = resolve;
      if (photo) {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, v);
        form.append("image", photo, photo.name);
        void fetcher.submit(form, { method: "post", action, encType: "multipart/form-data" });
      } else void fetcher.submit(fields, { method: "post", action });
    });
  return { call, busy: fetcher.state !== "idle" };
}

interface Draft {
  id: string | null;
  recipe: PickedRecipe | null;
  subject: string;
  eventMessage: string;
  when: string;
  /** The time the dialog opened with: unchanged, the server stamps the event with its own "now". */
  openedWhen: string;
  photo: File | null;
}

export function Timeline({
  groupSlug,
  events,
  recipe,
  onChanged,
}: {
  groupSlug: string;
  events: TimelineEventView[];
  /** One recipe's timeline: new events are for it and recipe names are not repeated on each event. */
  recipe?: { id: string; slug: string; name: string } | null;
  /** After a write (the recipe page's dialog reloads its data itself). */
  onChanged?: () => void;
}) {
  const t = useT("timeline");
  const tc = useT("common");
  const { lang } = useLanguage();
  const action = timelinePath(groupSlug);
  const { call, busy } = useTimelineAction(action);
  const [prefs, setPrefs] = useState<TimelinePrefs>(DEFAULT_TIMELINE_PREFS);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [tried, setTried] = useState(false);
  const [removing, setRemoving] = useState<TimelineEventView | null>(null);
  useEffect(() => setPrefs(loadTimelinePrefs()), []);

  const update = (p: TimelinePrefs) => {
    setPrefs(p);
    saveTimelinePrefs(p);
  };
  const shown = visibleEvents(events, prefs);
  // The reader's time zone is the browser's: the server and the first render show the UTC day only.
  const hydrated = useHydrated();
  const when = (iso: string) =>
    hydrated
      ? new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }).replace(/\s/g, " ")
      : iso.slice(0, 10);

  const report = (r: TimelineResult, done: string) => {
    if (r.ok) {
      toast.success(done);
      onChanged?.();
    } else toast.error(failedText(t(`errors.${r.error}`), r));
    return r.ok;
  };

  const openNew = () => {
    setTried(false);
    setDraft({
      id: null,
      recipe: recipe ? { id: recipe.id, slug: recipe.slug, name: recipe.name, image: null } : null,
      subject: "",
      eventMessage: "",
      when: toLocalInput(new Date().toISOString()),
      openedWhen: toLocalInput(new Date().toISOString()),
      photo: null,
    });
  };

  const save = async () => {
    if (!draft) return false;
    setTried(true);
    if (!draft.subject.trim() || (!draft.id && !draft.recipe)) return false;
    if (draft.id) {
      const r = await call(
        { intent: "update", id: draft.id, subject: draft.subject, eventMessage: draft.eventMessage },
        draft.photo,
      );
      return report(r, t("updated"));
    }
    const r = await call(
      {
        intent: "create",
        recipeId: draft.recipe?.id ?? "",
        subject: draft.subject,
        eventMessage: draft.eventMessage,
        eventType: "info",
        timestamp: draft.when === draft.openedWhen ? "" : (fromLocalInput(draft.when) ?? ""),
      },
      draft.photo,
    );
    return report(r, t("added"));
  };

  return (
    <div className="timeline" data-testid="timeline">
      <Group justify="space-between" align="flex-end" gap="sm" className="timeline__tools" wrap="wrap">
        <Checkbox.Group
          label={t("filter.types")}
          value={prefs.types}
          onChange={(v) => update({ ...prefs, types: EVENT_TYPES.filter((x) => v.includes(x)) })}
          data-testid="timeline-types"
        >
          <Group gap="md" mt={6}>
            {EVENT_TYPES.map((type) => (
              <Checkbox key={type} value={type} label={t(`types.${type}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group gap="sm" align="flex-end">
          <SegmentedControl
            aria-label={t("filter.order")}
            value={prefs.orderDirection}
            onChange={(v) => update({ ...prefs, orderDirection: v === "desc" ? "desc" : "asc" })}
            data={[
              { value: "asc", label: t("filter.oldest") },
              { value: "desc", label: t("filter.newest") },
            ]}
            data-testid="timeline-order"
          />
          <Button leftSection={<PlusIcon />} onClick={openNew} data-testid="timeline-add">
            {t("add")}
          </Button>
        </Group>
      </Group>

      {shown.length === 0 ? (
        <Text c="dimmed" mt="md" data-testid="timeline-empty">
          {events.length ? t("noneShown") : t("empty")}
        </Text>
      ) : (
        <ol className="timeline__list">
          {shown.map((e) => (
            <li
              key={e.id}
              className={`timeline__item timeline__item--${e.eventType}`}
              data-testid="timeline-event"
            >
              <span className="timeline__dot" aria-hidden />
              <Paper withBorder radius="md" p="sm" className="timeline__card">
                <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text size="xs" c="dimmed" component="time" dateTime={e.timestamp}>
                        {when(e.timestamp)}
                      </Text>
                      <Badge size="xs" variant="light" data-testid="timeline-event-type">
                        {t(`types.${e.eventType}`)}
                      </Badge>
                    </Group>
                    <Text fw={600} className="timeline__subject" data-testid="timeline-event-subject">
                      {e.subject}
                    </Text>
                    {recipe ? null : (
                      <Link
                        to={`/g/${encodeURIComponent(groupSlug)}/r/${encodeURIComponent(e.recipe.slug)}`}
                        className="timeline__recipe"
                      >
                        {e.recipe.name}
                      </Link>
                    )}
                  </Stack>
                  {e.mine ? (
                    <Menu position="bottom-end" withinPortal shadow="md" width={180}>
                      <Menu.Target>
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          size="sm"
                          aria-label={t("menu", { subject: e.subject })}
                          data-testid="timeline-event-menu"
                        >
                          <DotsIcon />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          leftSection={<PencilIcon />}
                          onClick={() => {
                            setTried(false);
                            setDraft({
                              id: e.id,
                              recipe: e.recipe,
                              subject: e.subject,
                              eventMessage: e.eventMessage,
                              when: toLocalInput(e.timestamp),
                              openedWhen: toLocalInput(e.timestamp),
                              photo: null,
                            });
                          }}
                        >
                          {tc("actions.edit")}
                        </Menu.Item>
                        <Menu.Item leftSection={<TrashIcon />} color="red" onClick={() => setRemoving(e)}>
                          {tc("actions.delete")}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  ) : null}
                </Group>
                {e.eventMessage ? (
                  <Text size="sm" className="timeline__message" mt={4}>
                    {e.eventMessage}
                  </Text>
                ) : null}
                {e.hasImage ? (
                  <img
                    className="timeline__photo"
                    src={timelineImageUrl(e)}
                    alt={t("photoOf", { subject: e.subject })}
                    loading="lazy"
                    data-testid="timeline-event-photo"
                  />
                ) : null}
                {e.userName ? (
                  <Text size="xs" c="dimmed" mt={4}>
                    {t("by", { name: e.userName })}
                  </Text>
                ) : null}
              </Paper>
            </li>
          ))}
        </ol>
      )}

      <AppDialog
        opened={draft !== null}
        onClose={() => setDraft(null)}
        title={draft?.id ? t("editTitle") : t("addTitle")}
        submitLabel={draft?.id ? tc("actions.save") : t("add")}
        loading={busy}
        data-testid="timeline-dialog"
        onSubmit={save}
      >
        {draft ? (
          <Stack gap="sm">
            {draft.id || recipe ? (
              <Text size="sm">
                {t("forRecipe")} <strong>{draft.recipe?.name}</strong>
              </Text>
            ) : (
              <RecipePicker
                groupSlug={groupSlug}
                value={draft.recipe}
                onChange={(r) => setDraft({ ...draft, recipe: r })}
                label={t("recipe")}
                error={tried && !draft.recipe ? t("recipeRequired") : undefined}
              />
            )}
            <TextInput
              label={t("subject")}
              value={draft.subject}
              onChange={(e) => setDraft({ ...draft, subject: e.currentTarget.value })}
              error={tried && !draft.subject.trim() ? tc("validation.required") : undefined}
              withAsterisk
              maxLength={1000}
              data-autofocus
              data-testid="timeline-subject"
            />
            <Textarea
              label={t("message")}
              value={draft.eventMessage}
              onChange={(e) => setDraft({ ...draft, eventMessage: e.currentTarget.value })}
              autosize
              minRows={2}
              maxRows={8}
              data-testid="timeline-message"
            />
            {draft.id ? null : (
              <TextInput
                type="datetime-local"
                label={t("when")}
                value={draft.when}
                onChange={(e) => setDraft({ ...draft, when: e.currentTarget.value })}
                data-testid="timeline-when"
              />
            )}
            <FileInput
              label={draft.id ? t("replacePhoto") : t("photo")}
              placeholder={t("choosePhoto")}
              accept="image/*"
              clearable
              leftSection={<ImageIcon />}
              value={draft.photo}
              onChange={(f) => setDraft({ ...draft, photo: f })}
              data-testid="timeline-photo"
            />
          </Stack>
        ) : null}
      </AppDialog>

      <AppDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={t("deleteTitle")}
        submitLabel={tc("actions.delete")}
        submitColor="red"
        data-testid="timeline-delete-dialog"
        onSubmit={async () => {
          if (!removing) return;
          return report(await call({ intent: "delete", id: removing.id }), t("deleted"));
        }}
      >
        <Text>{t("deleteConfirm", { subject: removing?.subject ?? "" })}</Text>
      </AppDialog>
    </div>
  );
}
