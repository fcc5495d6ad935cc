/**
 * An item as typed in the add form or the edit dialog, and as the API takes it: food and unit names the
 * group knows become ids; text it does not know goes into the note, so nothing typed is lost. Pure.
 */
import type { ItemFields } from "./sync.js";
import type { ListItem, VocabIndex } from "./types.js";

export interface ItemDraft {
  quantity: number;
  unit: string;
  food: string;
  note: string;
  labelId: string | null;
}

const norm = (s: string) => s.normalize("NFKC").trim().toLowerCase();

function findByName<T extends { name: string; pluralName: string | null }>(
  all: Iterable<T>,
  text: string,
  extra?: (x: T) => string[],
): T | undefined {
  const want = norm(text);
  if (!want) return undefined;
  for (const x of all) {
    const names = [x.name, x.pluralName ?? "", ...(extra?.(x) ?? [])].map(norm);
    if (names.includes(want)) return x;
  }
  return undefined;
}

/** The draft as item fields: known names become ids; unknown food text joins the note. */
export function itemFieldsOf(d: ItemDraft, vocab: VocabIndex): ItemFields {
  const food = findByName(vocab.foods.values(), d.food, (f) => f.aliases ?? []);
  const unit = findByName(vocab.units.values(), d.unit, (u) => [u.abbreviation, ...(u.aliases ?? [])]);
  const note = [unit ? "" : d.unit, food ? "" : d.food, d.note]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(" ");
  return {
    quantity: Number.isFinite(d.quantity) && d.quantity >= 0 ? d.quantity : 1,
    unitId: unit?.id ?? null,
    foodId: food?.id ?? null,
    note,
    labelId: d.labelId ?? food?.labelId ?? null,
  };
}

export function draftOf(i: ListItem, vocab: VocabIndex): ItemDraft {
  return {
    quantity: i.quantity,
    unit: (i.unitId && vocab.units.get(i.unitId)?.name) || "",
    food: (i.foodId && vocab.foods.get(i.foodId)?.name) || "",
    note: i.note,
    labelId: i.labelId,
  };
}
