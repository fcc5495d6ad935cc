/**
 * What dnd-kit tells a screen reader while something is dragged, in the page's language and by the
 * items' names. Its defaults are English and name things by their ids ("Picked up draggable item
 * 3f2c…"). Callers say what an id is called (`nameOf`) and how a drop place reads (`placeOf`: "position
 * 2 of 5", "Monday 7 December").
 */
import { useMemo, useRef } from "react";
import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from "@dnd-kit/core";
import { useT } from "./i18n.js";

export interface DndAccessibility {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
}

export function useDndAccessibility(
  nameOf: (id: UniqueIdentifier) => string,
  placeOf: (id: UniqueIdentifier) => string,
): DndAccessibility {
  const t = useT("common");
  // dnd-kit reports the item over its own place as soon as it is picked up, which would replace
  // "Picked up …" before it is read: only a change of place is announced.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  return useMemo(
    () => ({
      screenReaderInstructions: { draggable: t("dnd.instructions") },
      announcements: {
        onDragStart: ({ active }) => {
          lastOver.current = active.id;
          return t("dnd.pickedUp", { item: nameOf(active.id) });
        },
        onDragOver: ({ active, over }) => {
          if ((over?.id ?? null) === lastOver.current) return undefined;
          lastOver.current = over?.id ?? null;
          return over
            ? t("dnd.over", { item: nameOf(active.id), place: placeOf(over.id) })
            : t("dnd.notOver", { item: nameOf(active.id) });
        },
        onDragEnd: ({ active, over }) =>
          over
            ? t("dnd.dropped", { item: nameOf(active.id), place: placeOf(over.id) })
            : t("dnd.droppedNowhere", { item: nameOf(active.id) }),
        onDragCancel: ({ active }) => t("dnd.cancelled", { item: nameOf(active.id) }),
      },
    }),
    [t, nameOf, placeOf],
  );
}

/** A place in a sortable list of `ids`: "position 2 of 5". */
export function usePositionOf(ids: string[]): (id: UniqueIdentifier) => string {
  const t = useT("common");
  return useMemo(
    () => (id: UniqueIdentifier) =>
      t("dnd.position", { position: ids.indexOf(String(id)) + 1, count: ids.length }),
    [t, ids],
  );
}
