/** How a list's items are laid out: open items by section, checked ones apart. Pure. */
import type { ListItem, ListMeta, VocabIndex } from "./types.js";

export interface Section {
  key: string;
  title: string | null;
  color: string | null;
  items: ListItem[];
}

export const byPosition = (a: ListItem, b: ListItem) => a.position - b.position || a.id.localeCompare(b.id);

/** Unchecked items in sections: by label in the list's label order (no label last), or one section. */
export function sectionsOf(
  items: ListItem[],
  list: ListMeta,
  vocab: VocabIndex,
  byLabel: boolean,
): Section[] {
  const open = items.filter((i) => !i.checked).sort(byPosition);
  if (!byLabel) return [{ key: "all", title: null, color: null, items: open }];
  const order = new Map(list.labelSettings.map((s) => [s.labelId, s.position]));
  const groups = new Map<string, ListItem[]>();
  for (const i of open) {
    const key = i.labelId && vocab.labels.has(i.labelId) ? i.labelId : "";
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => {
      if (!a || !b) return a ? -1 : b ? 1 : 0;
      return (
        (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) ||
        (vocab.labels.get(a)?.name ?? "").localeCompare(vocab.labels.get(b)?.name ?? "")
      );
    })
    .map(([key, list]) => ({
      key: key || "none",
      title: key ? (vocab.labels.get(key)?.name ?? null) : null,
      color: key ? (vocab.labels.get(key)?.color ?? null) : null,
      items: list,
    }));
}
