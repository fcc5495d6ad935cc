/**
 * Mealie's shopping-item merge rules (mealie-api-notes §8), plus Larder's unit-aware merging: two
 * unchecked items merge when they have the same food and the same unit — or units of the same
 * dimension (1 cup + 250 ml) — or, without a food, the same note once normalised (case, spaces).
 * The item that was there first keeps its unit; the other's quantity is converted into it.
 */
import { roundQuantity } from "../recipes/quantity.js";
import type { ItemRecipeRef, ShoppingItemRecord } from "../schemas/week.js";
import { convert, measureOf, type Measure, type UnitLike } from "./units.js";

export type UnitsById = (id: string) => UnitLike | null;

export function normaliseNote(note: string | null | undefined): string {
  return (note ?? "").normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

function measure(unitId: string | null, units: UnitsById): Measure | null {
  return unitId ? measureOf(units(unitId)) : null;
}

/** The key two items share when they may merge; null for checked items (they never merge). */
export function mergeKey(
  item: Pick<ShoppingItemRecord, "checked" | "foodId" | "unitId" | "note">,
  units: UnitsById,
): string | null {
  if (item.checked) return null;
  const m = measure(item.unitId, units);
  const unitKey = m ? `d:${m.dimension}` : `u:${item.unitId ?? ""}`;
  return item.foodId ? `f:${item.foodId}|${unitKey}` : `n:${normaliseNote(item.note)}|${unitKey}`;
}

/** `q` of `from`'s unit in `into`'s unit (identical units, or both convertible). */
export function quantityIn(
  q: number,
  fromUnitId: string | null,
  intoUnitId: string | null,
  units: UnitsById,
): number {
  if (fromUnitId === intoUnitId) return q;
  const a = measure(fromUnitId, units);
  const b = measure(intoUnitId, units);
  return a && b && a.dimension === b.dimension ? convert(q, a, b) : q;
}

/**
 * Merge `from` into `into` (in place): quantities add (converted), notes of food items join with
 * " | " without repeats, extras merge (the incoming side wins), recipe references merge by recipe,
 * adding their scales (a missing scale counts as 1).
 */
export function mergeInto(
  into: ShoppingItemRecord,
  from: ShoppingItemRecord,
  units: UnitsById,
  newRefId: () => string,
): void {
  into.quantity = roundQuantity(into.quantity + quantityIn(from.quantity, from.unitId, into.unitId, units));
  if (into.foodId) {
    const notes: string[] = [];
    for (const n of [...into.note.split(" | "), ...from.note.split(" | ")]) {
      const t = n.trim();
      if (t && !notes.some((x) => normaliseNote(x) === normaliseNote(t))) notes.push(t);
    }
    into.note = notes.join(" | ");
  }
  into.extras = { ...into.extras, ...from.extras };
  into.labelId ??= from.labelId;
  // A reference's quantity is in its item's unit (removing the recipe subtracts it from the item's
  // quantity): the incoming ones are converted as their quantity was.
  const incoming =
    from.unitId === into.unitId
      ? from.recipeReferences
      : from.recipeReferences.map((r) => ({
          ...r,
          recipeQuantity: quantityIn(r.recipeQuantity, from.unitId, into.unitId, units),
        }));
  into.recipeReferences = mergeRefs(into.recipeReferences, incoming, newRefId);
}

export function mergeRefs(a: ItemRecipeRef[], b: ItemRecipeRef[], newRefId: () => string): ItemRecipeRef[] {
  const out = a.map((r) => ({ ...r }));
  for (const r of b) {
    const hit = out.find((x) => x.recipeId === r.recipeId);
    if (hit) hit.recipeScale = roundQuantity((hit.recipeScale ?? 1) + (r.recipeScale ?? 1));
    else out.push({ ...r, id: out.some((x) => x.id === r.id) ? newRefId() : r.id });
  }
  return out;
}
