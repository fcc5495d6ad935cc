/**
 * RecipeDoc: what one recipe file holds, independent of any group's ids. The file module
 * (core/recipes/file/) turns text into a RecipeDoc and back; core/recipes/wire.ts maps a RecipeDoc to
 * and from the wire Recipe given the group's vocabulary (foods, units, organizers) and derived ids.
 */
import type { NutritionKey, RecipeAsset, RecipeNote, RecipeSettings } from "../schemas/recipe.js";
import {
  defaultOf,
  RECIPE_FIELD_KEYS,
  RECIPE_FIELDS,
  type FieldKind,
  type RecipeFieldKey,
  type SimpleKindValue,
} from "./fields.js";

export interface DocIngredient {
  /** Section heading shown above this ingredient (`### Title` before it in the list). */
  title: string | null;
  quantity: number | null;
  /** Upper bound of a range ("2-3 cloves"): kept so the line round-trips; `quantity` holds the lower bound. */
  quantityMax: number | null;
  /** Unit and food by name as the group knows them (canonical name, not the plural or alias used). */
  unit: string | null;
  food: string | null;
  note: string;
  /** The raw line as scraped/typed, when it differs from the canonical rendering. */
  originalText: string | null;
  /** Slug of a sub-recipe in the same group (a Markdown link to `<slug>.md`). */
  referencedRecipe: string | null;
  /**
   * Link text of the sub-recipe link (`[Naan dough](naan-dough.md)`), kept so the line reads back the
   * same; presentation only (the API shows the linked recipe's current name). Missing/null: the slug.
   */
  referencedRecipeName?: string | null;
}

export interface DocStep {
  title: string | null;
  summary: string | null;
  text: string;
  /** 0-based positions into `ingredients` that this step uses. */
  ingredientRefs: number[];
}

/** What each structured kind of field holds (the simple kinds: SimpleKindValue). */
interface StructuredKindValue {
  /** Organizers by name, in file order. */
  names: string[];
  nutrition: Partial<Record<NutritionKey, string>>;
  /** Only values that differ from RECIPE_SETTINGS_DEFAULTS are written. */
  settings: Partial<RecipeSettings>;
  extras: Record<string, string>;
  assets: RecipeAsset[];
}
type KindValue = SimpleKindValue & StructuredKindValue;

/**
 * The front-matter fields, typed from their declaration (core/recipes/fields.ts): `id` and `owner` are
 * null when the file has none (identity rules assign them); timestamps are a full UTC ISO timestamp, or a
 * bare YYYY-MM-DD date in hand-made files; `image` is the image's cache key (not a URL).
 */
export type RecipeFields = {
  -readonly [K in RecipeFieldKey]: KindValue[(typeof RECIPE_FIELDS)[K]["kind"]];
};

export interface RecipeDoc extends RecipeFields {
  description: string;
  ingredients: DocIngredient[];
  instructions: DocStep[];
  notes: RecipeNote[];
  /** Front-matter keys Larder does not know, kept as they were so a save never drops them. */
  otherKeys?: Record<string, unknown>;
}

/** Units and foods a group knows, for reading and writing ingredient lines. */
export interface VocabularyUnit {
  name: string;
  pluralName: string | null;
  abbreviation: string;
  pluralAbbreviation: string | null;
  aliases: string[];
  useAbbreviation: boolean;
  fraction: boolean;
}
export interface VocabularyFood {
  name: string;
  pluralName: string | null;
  aliases: string[];
}
export interface Vocabulary {
  units: VocabularyUnit[];
  foods: VocabularyFood[];
}

/** A recipe with nothing but a name: every field at the default a missing key reads as. */
export function emptyRecipeDoc(name: string): RecipeDoc {
  const fields: Record<string, unknown> = {};
  for (const key of RECIPE_FIELD_KEYS) {
    const kind = RECIPE_FIELDS[key].kind as FieldKind;
    fields[key] =
      kind === "text" || kind === "name" || kind === "count"
        ? defaultOf(kind)
        : kind === "names" || kind === "assets"
          ? []
          : {};
  }
  return { ...(fields as RecipeFields), name, description: "", ingredients: [], instructions: [], notes: [] };
}
