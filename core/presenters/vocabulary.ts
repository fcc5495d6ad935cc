/** Wire shapes of organizers, foods, units and labels. */
import type { IngredientFood, IngredientUnit, LabelSummary } from "../schemas/recipe.js";
import type { FoodRecord, LabelRecord, OrganizerRecord, ToolRecord, UnitRecord } from "../schemas/records.js";

export function presentOrganizer(
  o: OrganizerRecord,
  groupId: string,
): { id: string; groupId: string; name: string; slug: string } {
  return { id: o.id, groupId, name: o.name, slug: o.slug };
}

export function presentTool(
  t: ToolRecord,
  groupId: string,
): { id: string; groupId: string; name: string; slug: string; householdsWithTool: string[] } {
  return { id: t.id, groupId, name: t.name, slug: t.slug, householdsWithTool: [...t.householdsWithTool] };
}

export function presentLabel(l: LabelRecord, groupId: string): LabelSummary {
  return { id: l.id, groupId, name: l.name, color: l.color };
}

/** `householdSlug` of the caller decides `onHand` (mealie-api-notes §0.1). */
export function presentFood(
  f: FoodRecord,
  groupId: string,
  label: LabelRecord | null,
  callerHouseholdSlug: string | null,
): IngredientFood {
  return {
    id: f.id,
    name: f.name,
    pluralName: f.pluralName,
    description: f.description,
    extras: { ...f.extras },
    labelId: f.labelId,
    aliases: f.aliases.map((a) => ({ name: a.name })),
    householdsWithIngredientFood: [...f.householdsWithIngredientFood],
    label: label ? presentLabel(label, groupId) : null,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    onHand: callerHouseholdSlug !== null && f.householdsWithIngredientFood.includes(callerHouseholdSlug),
    groupId,
  };
}

export function presentUnit(u: UnitRecord, groupId: string): IngredientUnit {
  return {
    id: u.id,
    name: u.name,
    pluralName: u.pluralName,
    description: u.description,
    extras: { ...u.extras },
    fraction: u.fraction,
    abbreviation: u.abbreviation,
    pluralAbbreviation: u.pluralAbbreviation,
    useAbbreviation: u.useAbbreviation,
    aliases: u.aliases.map((a) => ({ name: a.name })),
    standardQuantity: u.standardQuantity,
    standardUnit: u.standardUnit,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    groupId,
  };
}
