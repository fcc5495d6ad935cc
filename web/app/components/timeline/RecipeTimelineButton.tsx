/**
 * The recipe page's timeline: a toolbar button that opens the recipe's events in a dialog, loaded from
 * the timeline page (`?recipe=<slug>`) when it opens, so the recipe page itself carries none of them.
 */
import { useEffect, useState } from "react";
import { Button, Loader } from "@mantine/core";
import { LazyModal } from "../dialog/LazyModal.js";
import { useMediaQuery } from "@mantine/hooks";
import { useFetcher } from "react-router";
import { XS_QUERY } from "../dialog/AppDialog.js";
import { ClockIcon } from "../mealplan/icons.js";
import { useT } from "../../lib/i18n.js";
import type { TimelineEventView } from "../../lib/timeline.server.js";
import { Timeline, timelinePath } from "./Timeline.js";

interface Loaded {
  groupSlug: string;
  recipe: { id: string; slug: string; name: string } | null;
  events: TimelineEventView[];
}

export function RecipeTimelineButton({
  groupSlug,
  recipe,
}: {
  groupSlug: string;
  recipe: { slug: string; name: string };
}) {
  const t = useT("timeline");
  const tc = useT("common");
  const xs = useMediaQuery(XS_QUERY);
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<Loaded>();
  const url = `${timelinePath(groupSlug)}?recipe=${encodeURIComponent(recipe.slug)}`;
  const load = () => void fetcher.load(url);
  useEffect(() => {
    if (open) load();
    // Reload each time it opens, and when the recipe changes under an open dialog.
  }, [open, url]);

  return (
    <>
      <Button
        variant="light"
        leftSection={<ClockIcon />}
        onClick={() => setOpen(true)}
        data-testid="recipe-timeline-button"
      >
        {t("button")}
      </Button>
      {/* A plain modal, not an AppDialog: its form would also take the submits of the event dialog
          inside it (React events bubble through portals) and close. */}
      <LazyModal
        opened={open}
        onClose={() => setOpen(false)}
        title={t("titleFor", { name: recipe.name })}
        size={816}
        fullScreen={Boolean(xs)}
        centered={!xs}
        closeButtonProps={{ "aria-label": tc("actions.close") }}
        data-testid="recipe-timeline-dialog"
      >
        {fetcher.data ? (
          <Timeline
            groupSlug={groupSlug}
            events={fetcher.data.events}
            recipe={fetcher.data.recipe}
            onChanged={load}
          />
        ) : (
          <Loader size="sm" aria-label={t("loading")} />
        )}
      </LazyModal>
    </>
  );
}
