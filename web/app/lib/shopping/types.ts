/**
 * What the shopping screens hold: the wire item trimmed to what the page shows, and the group's foods,
 * units and labels for suggestions and for showing items made offline. Types and pure helpers only.
 */
import type { ShoppingItemOut, ShoppingListOut } from "../../../../core/shopping/shopping-service.js";
import { formatQuantity as formatFraction } from "../scale.js";
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
  /** False for units measured in decimals (grams); fractions otherwise, as on the recipe page. */
  fraction?: boolean;
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

/** The fractions a cook measures with: halves, thirds, quarters and eighths. */
const COOK_DENOMINATORS = [2, 3, 4, 8];

/**
 * A quantity as a cook reads it. Merged items add converted amounts (250 ml + 2 cups = 736.588 ml), so
 * the sum carries digits no one measures: small amounts near a common fraction show as one (`1 ¹/₂`)
 * when the unit takes fractions, others keep fewer decimals the larger they are (736.588 → 737,
 * 12.345 → 12.3, 0.41 → 0.41), and a tiny amount keeps two significant digits rather than reading "0".
 */
export function formatQuantity(q: number, fraction = true): string {
  if (fraction && q > 0 && q < 10) {
    const whole = Math.floor(q);
    for (const d of COOK_DENOMINATORS) {
      const n = Math.round((q - whole) * d);
      if (n > 0 && n < d && Math.abs(q - whole - n / d) < 0.01) return formatFraction(whole + n / d);
    }
  }
  const places = Math.abs(q) >= 100 ? 0 : Math.abs(q) >= 10 ? 1 : 2;
  const rounded = Number(q.toFixed(places));
  return String(rounded === 0 && q !== 0 ? Number(q.toPrecision(2)) : rounded);
}

/** The line shown for an item: quantity, unit, food, note (the order of the wire's `display`). */
export function itemText(
  i: ListItem,
  vocab: VocabIndex,
  localize: (quantity: string) => string = (q) => q,
): { main: string; note: string } {
  const food = i.foodId ? vocab.foods.get(i.foodId) : undefined;
  const unit = i.unitId ? vocab.units.get(i.unitId) : undefined;
  const plural = i.quantity > 1;
  const parts: string[] = [];
  if (i.quantity && (food || unit || i.quantity !== 1))
    parts.push(localize(formatQuantity(i.quantity, unit?.fraction !== false)));
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
