/**
 * The ingredient picker of "Add to shopping list" (spec §4): the recipe's ingredients in its sections,
 * each checked unless its food is on hand, on-hand ones last in their section. Pure.
 */
import type { Recipe } from "../../../../core/schemas/recipe.js";
import { ingredientParts, rangeMaxFromDisplay } from "../scale.js";

export type Ingredient = Recipe["recipeIngredient"][number];

export interface PickRow {
  key: string;
  title: string | null;
  text: string;
  onHand: boolean;
  raw: Ingredient;
}

/** Sections as the recipe has them; inside each, on-hand foods last (spec §4). */
export function pickRows(ingredients: readonly Ingredient[]): { title: string | null; rows: PickRow[] }[] {
  const sections: { title: string | null; rows: PickRow[] }[] = [];
  ingredients.forEach((ing, i) => {
    if (ing.title || sections.length === 0) sections.push({ title: ing.title || null, rows: [] });
    const text = (ing.display || ing.note || ing.originalText || "").trim();
    if (!text && !ing.food) return;
    sections[sections.length - 1].rows.push({
      key: ing.referenceId || String(i),
      title: ing.title || null,
      text: text || ing.food?.name || "",
      onHand: ing.food?.onHand === true,
      raw: ing,
    });
  });
  for (const s of sections) s.rows = [...s.rows.filter((r) => !r.onHand), ...s.rows.filter((r) => r.onHand)];
  return sections.filter((s) => s.rows.length > 0);
}

/**
 * A row's text at the servings scale the dialog will add: what lands on the list. An ingredient
 * without an amount reads the same at any scale.
 */
export function scaledRowText(row: PickRow, scale: number): string {
  const ing = row.raw;
  if (scale === 1 || !ing.quantity || !(scale > 0)) return row.text;
  const parts = ingredientParts(
    {
      quantity: ing.quantity,
      quantityMax: rangeMaxFromDisplay(ing.display ?? "", ing.quantity),
      unit: ing.unit,
      food: ing.food,
      recipe: ing.referencedRecipe
        ? { name: ing.referencedRecipe.name ?? "", slug: ing.referencedRecipe.slug }
        : null,
      noteHtml: "",
    },
    scale,
  );
  return [parts.quantity, parts.unit, parts.recipe?.name ?? parts.food, ing.note?.trim() || null]
    .filter(Boolean)
    .join(" ");
}
