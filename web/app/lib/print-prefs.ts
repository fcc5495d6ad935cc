/**
 * Recipe print preferences (spec §3 local preferences): where the image goes and which sections print.
 * Kept in localStorage, per browser, like Mealie; a stored value that is damaged or from an older shape
 * falls back field by field to the defaults.
 */

export type ImagePosition = "left" | "right" | "hidden";

export interface PrintPrefs {
  imagePosition: ImagePosition;
  showDescription: boolean;
  showNotes: boolean;
  showNutrition: boolean;
}

/** Spec §3: image left, description and notes on; nutrition off unless asked for (as in Mealie). */
export const DEFAULT_PRINT_PREFS: Readonly<PrintPrefs> = Object.freeze({
  imagePosition: "left",
  showDescription: true,
  showNotes: true,
  showNutrition: false,
});

export const PRINT_PREFS_KEY = "larder.recipe-print-preferences";

const POSITIONS: readonly ImagePosition[] = ["left", "right", "hidden"];

/** Parses stored JSON; every field that is missing or of the wrong type takes its default. */
export function parsePrintPrefs(raw: string | null | undefined): PrintPrefs {
  let v: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) v = parsed as Record<string, unknown>;
  } catch {
    // A hand-edited or corrupt value: defaults.
  }
  const bool = (k: keyof PrintPrefs) =>
    typeof v[k] === "boolean" ? (v[k] as boolean) : (DEFAULT_PRINT_PREFS[k] as boolean);
  return {
    imagePosition: POSITIONS.includes(v.imagePosition as ImagePosition)
      ? (v.imagePosition as ImagePosition)
      : DEFAULT_PRINT_PREFS.imagePosition,
    showDescription: bool("showDescription"),
    showNotes: bool("showNotes"),
    showNutrition: bool("showNutrition"),
  };
}

type StorageLike = Pick<Storage, "getItem" | "setItem">;

function storage(): StorageLike | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): preferences last for the page only
  }
}

export function loadPrintPrefs(store: StorageLike | null = storage()): PrintPrefs {
  try {
    return parsePrintPrefs(store?.getItem(PRINT_PREFS_KEY));
  } catch {
    return { ...DEFAULT_PRINT_PREFS };
  }
}

export function savePrintPrefs(prefs: PrintPrefs, store: StorageLike | null = storage()): void {
  try {
    store?.setItem(PRINT_PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Quota or privacy mode: the choice still applies to this page.
  }
}
