/**
 * What the shopping screens hold: the wire item trimmed to what the page shows, and the group's foods,
 * units and labels for suggestions and for showing items made offline. Types and pure helpers only.
 */
import type { ShoppingItemOut, ShoppingListOut } from "../../../../core/shopping/shopping-service.js";
import type { SyncItem } from "./sync.js";

export interface ListItem extends SyncItem {
  note: string;
  quantity: number;
  checked: boolean;
  position: number;
  foodId: string | null;
  unitId: string | null;
  labelId: string | null;
  /** Names of the recipes the item came from. */
  recipes: string[];
}

export interface ListMeta {
  id: string;
  name: string;
  userId: string;
  labelSettings: { id: string; labelId: string; position: number }[];
  recipes: { id: string; name: string; slug: string; quantity: number }[];
}

export interface FoodOption {
  id: string;
  name: string;
  pluralName: string | null;
  labelId: string | null;
  onHand: boolean;
  /** Other names the group gave the food ("flour" for all-purpose flour): typed, they are the food. */
  aliases?: string[];
}
export interface UnitOption {
  id: string;
  name: string;
  pluralName: string | null;
  abbreviation: string;
  useAbbreviation: boolean;
  aliases?: string[];
}
export interface LabelOption {
  id: string;
  name: string;
  color: string;
}
export interface Vocabulary {
  foods: FoodOption[];
  units: UnitOption[];
  labels: LabelOption[];
}

export function trimItem(i: ShoppingItemOut, recipeNames: Map<string, string>): ListItem {
  return {
    id: i.id,
    shoppingListId: i.shoppingListId,
    note: i.note ?? "",
    quantity: i.quantity,
    checked: i.checked,
    position: i.position,
    foodId: i.foodId,
    unitId: i.unitId,
    labelId: i.labelId,
    updatedAt: i.updatedAt,
    recipes: i.recipeReferences.flatMap((r) => {
      const n = recipeNames.get(r.recipeId);
      return n ? [n] : [];
    }),
  };
}

export function trimList(l: Omit<ShoppingListOut, "listItems">): ListMeta {
  return {
    id: l.id,
    name: l.name ?? "",
    userId: l.userId,
    labelSettings: l.labelSettings.map((s) => ({ id: s.id, labelId: s.labelId, position: s.position })),
    recipes: l.recipeReferences.map((r) => ({
      id: r.recipeId,
      name: r.recipe.name ?? "",
      slug: r.recipe.slug ?? "",
      quantity: r.recipeQuantity,
    })),
  };
}

export function recipeNamesOf(l: Omit<ShoppingListOut, "listItems">): Map<string, string> {
  return new Map(l.recipeReferences.map((r) => [r.recipeId, r.recipe.name ?? ""]));
}

/** A quantity as a cook writes it: 1.5 → "1.5", 0.333 → "0.333", 2 → "2". */
export function formatQuantity(q: number): string {
  return String(Math.round(q * 1000) / 1000);
}

/** The line shown for an item: quantity, unit, food, note (the order of the wire's `display`). */
export function itemText(i: ListItem, vocab: VocabIndex): { main: string; note: string } {
  const food = i.foodId ? vocab.foods.get(i.foodId) : undefined;
  const unit = i.unitId ? vocab.units.get(i.unitId) : undefined;
  const plural = i.quantity > 1;
  const parts: string[] = [];
  if (i.quantity && (food || unit || i.quantity !== 1)) parts.push(formatQuantity(i.quantity));
  if (unit)
    parts.push(
      unit.useAbbreviation && unit.abbreviation
        ? unit.abbreviation
        : (plural && unit.pluralName) || unit.name,
    );
  if (food) parts.push((plural && food.pluralName) || food.name);
  if (!food) return { main: [...parts, i.note].filter(Boolean).join(" "), note: "" };
  return { main: parts.join(" "), note: i.note };
}

export interface VocabIndex {
  foods: Map<string, FoodOption>;
  units: Map<string, UnitOption>;
  labels: Map<string, LabelOption>;
}

export function indexVocabulary(v: Vocabulary): VocabIndex {
  return {
    foods: new Map(v.foods.map((f) => [f.id, f])),
    units: new Map(v.units.map((u) => [u.id, u])),
    labels: new Map(v.labels.map((l) => [l.id, l])),
  };
}
