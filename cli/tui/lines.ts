/**
 * The terminal app's screens as plain lines: everything it shows is computed here, without Ink, so the
 * views only window and style them (and tests can check the text directly).
 */
import { ingredientDisplay, type DisplayUnit } from "../../core/recipes/display.js";
import { formatDecimal } from "../../core/recipes/quantity.js";
import { addDays } from "../../core/mealplans/dates.js";
import { PLAN_ENTRY_TYPES } from "../../core/schemas/week.js";
import type { PlanEntryOut, RecipeView, ShoppingItemOut, ShoppingListOut } from "./source.js";

export interface Line {
  text: string;
  bold?: boolean;
  dim?: boolean;
  /** A line the cursor can rest on (an ingredient row does not, a list item does). */
  key?: string;
}

/** Servings the reader starts from, and how `+`/`-` move: by one serving, or by half the recipe without servings. */
export function baseServings(recipe: Pick<RecipeView, "recipeServings">): number | null {
  const s = recipe.recipeServings ?? 0;
  return s > 0 ? s : null;
}

/** The next scale factor after `+` (dir 1) or `-` (dir -1); never below one serving (or half the recipe). */
export function stepScale(scale: number, dir: 1 | -1, servings: number | null): number {
  if (servings) {
    const next = Math.round(scale * servings) + dir;
    return Math.max(1, next) / servings;
  }
  return Math.max(0.5, Math.round((scale + dir * 0.5) * 2) / 2);
}

/** One ingredient scaled by `scale`, with core's display rules (fractions, plurals, disableAmount). */
export function scaledIngredient(
  ing: RecipeView["recipeIngredient"][number],
  scale: number,
  disableAmount: boolean,
): string {
  // A line without structured parts (e.g. an unparsed import) keeps its text.
  if (ing.quantity === null && !ing.unit && !ing.food)
    return ing.note || ing.originalText || ing.display || "";
  return ingredientDisplay(
    {
      quantity: ing.quantity === null ? null : ing.quantity * scale,
      unit: ing.unit as DisplayUnit | null,
      food: ing.food,
      note: ing.note,
      recipeName: ing.referencedRecipe?.name ?? null,
    },
    disableAmount,
  );
}

/** Word-wrap `text` to `width` columns; a word longer than the width is cut. */
export function wrap(text: string, width: number, indent = ""): string[] {
  const out: string[] = [];
  const w = Math.max(10, width);
  for (const para of text.split(/\r?\n/)) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : `${indent}${word}`;
      if (candidate.length <= w) line = candidate;
      else {
        if (line) out.push(line);
        line = `${indent}${word}`.slice(0, w);
      }
    }
    out.push(line);
  }
  return out;
}

export function servingsText(recipe: RecipeView, scale: number): string {
  const servings = baseServings(recipe);
  if (servings) {
    const now = formatDecimal(servings * scale);
    return scale === 1 ? `Servings: ${now}` : `Servings: ${now} (recipe: ${formatDecimal(servings)})`;
  }
  return scale === 1 ? "Scale: ×1" : `Scale: ×${formatDecimal(scale)}`;
}

/** The reader: title, servings, ingredients scaled, steps and notes, wrapped to `width`. */
export function recipeLines(recipe: RecipeView, scale: number, width: number): Line[] {
  const disableAmount = Boolean(recipe.settings?.disableAmount);
  const lines: Line[] = [{ text: recipe.name, bold: true }];
  if (recipe.description) for (const l of wrap(recipe.description, width)) lines.push({ text: l, dim: true });
  const facts = [servingsText(recipe, scale)];
  if (recipe.recipeYield) facts.push(`Yield: ${recipe.recipeYield}`);
  if (recipe.totalTime) facts.push(`Total: ${recipe.totalTime}`);
  lines.push({ text: facts.join("  ·  ") }, { text: "" }, { text: "Ingredients", bold: true });
  if (!recipe.recipeIngredient.length) lines.push({ text: "(none)", dim: true });
  for (const ing of recipe.recipeIngredient) {
    if (ing.title) lines.push({ text: ing.title, bold: true });
    for (const l of wrap(`- ${scaledIngredient(ing, scale, disableAmount)}`, width, ""))
      lines.push({ text: l });
  }
  lines.push({ text: "" }, { text: "Steps", bold: true });
  if (!recipe.recipeInstructions.length) lines.push({ text: "(none)", dim: true });
  recipe.recipeInstructions.forEach((step, i) => {
    if (step.title) lines.push({ text: step.title, bold: true });
    const wrapped = wrap(step.text, width - 4);
    wrapped.forEach((l, j) =>
      lines.push({ text: `${j === 0 ? String(i + 1).padStart(2) + "." : "   "} ${l}` }),
    );
  });
  if (recipe.notes?.length) {
    lines.push({ text: "" }, { text: "Notes", bold: true });
    for (const note of recipe.notes) {
      if (note.title) lines.push({ text: note.title, bold: true });
      for (const l of wrap(note.text, width)) lines.push({ text: l });
    }
  }
  return lines;
}

/** The week containing `date` (YYYY-MM-DD), starting on `firstDay` (0 = Sunday). */
export function weekStart(date: string, firstDay: number): string {
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((dow - firstDay + 7) % 7));
}

const DAY = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
export function dayLabel(date: string): string {
  return DAY.format(new Date(`${date}T00:00:00Z`));
}

const typeOrder = (t: string) => (PLAN_ENTRY_TYPES as readonly string[]).indexOf(t);

/** The week's plan: a heading per day, then its meals (a meal with a recipe can be opened). */
export function planLines(start: string, entries: PlanEntryOut[]): Line[] {
  const lines: Line[] = [];
  for (let d = 0; d < 7; d++) {
    const date = addDays(start, d);
    lines.push({ text: dayLabel(date), bold: true });
    const today = entries
      .filter((e) => e.date === date)
      .sort((a, b) => typeOrder(a.entryType) - typeOrder(b.entryType) || a.id - b.id);
    if (!today.length) lines.push({ text: "  nothing planned", dim: true });
    for (const e of today)
      lines.push({
        text: `  ${e.entryType.padEnd(9)} ${e.recipe ? e.recipe.name : e.title || "(untitled)"}`,
        key: e.recipe ? `recipe:${e.recipe.slug}` : undefined,
      });
  }
  return lines;
}

/** A shopping list's items as `larder list show` orders them: open first, by label, then position. */
export function sortedItems(list: ShoppingListOut): ShoppingItemOut[] {
  const order = new Map(list.labelSettings.map((s) => [s.labelId, s.position]));
  return [...list.listItems].sort(
    (a, b) =>
      Number(a.checked) - Number(b.checked) ||
      (order.get(a.labelId ?? a.label?.id ?? "") ?? 1e9) -
        (order.get(b.labelId ?? b.label?.id ?? "") ?? 1e9) ||
      a.position - b.position,
  );
}

export function itemText(item: ShoppingItemOut): string {
  return item.display || item.note || item.food?.name || "(empty item)";
}

export function itemLines(list: ShoppingListOut): Line[] {
  return sortedItems(list).map((i) => ({
    text: `[${i.checked ? "x" : " "}] ${itemText(i)}${i.label?.name ? `  (${i.label.name})` : ""}`,
    dim: i.checked,
    key: i.id,
  }));
}

/** Cut a line to `width` columns, marking the cut. */
export function truncate(text: string, width: number): string {
  if (width <= 1) return text.slice(0, Math.max(0, width));
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}
