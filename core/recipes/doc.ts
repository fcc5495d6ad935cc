/**
 * RecipeDoc: what one recipe file holds, independent of any group's ids. The file module
 * (core/recipes/file/) turns text into a RecipeDoc and back; core/recipes/wire.ts maps a RecipeDoc to
 * and from the wire Recipe given the group's vocabulary (foods, units, organizers) and derived ids.
 */
import type { NutritionKey, RecipeAsset, RecipeNote, RecipeSettings } from "../schemas/recipe.js";

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

export interface RecipeDoc {
  /** From front matter; null when the file has none (identity rules assign one). */
  id: string | null;
  name: string;
  /** User id of the owner; null when missing (identity rules: the group's first admin). */
  owner: string | null;
  description: string;
  recipeServings: number;
  recipeYieldQuantity: number;
  recipeYield: string | null;
  totalTime: string | null;
  prepTime: string | null;
  cookTime: string | null;
  performTime: string | null;
  /** Organizers by name, in file order. */
  categories: string[];
  tags: string[];
  tools: string[];
  orgURL: string | null;
  nutrition: Partial<Record<NutritionKey, string>>;
  /** Only values that differ from RECIPE_SETTINGS_DEFAULTS are written. */
  settings: Partial<RecipeSettings>;
  extras: Record<string, string>;
  /** Full UTC ISO timestamp, or a bare YYYY-MM-DD date in hand-made files. */
  dateAdded: string | null;
  dateUpdated: string | null;
  lastMade: string | null;
  /** Cache key of the image (not a URL); null when the recipe has none. */
  image: string | null;
  assets: RecipeAsset[];
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

export function emptyRecipeDoc(name: string): RecipeDoc {
  return {
    id: null,
    name,
    owner: null,
    description: "",
    recipeServings: 0,
    recipeYieldQuantity: 0,
    recipeYield: null,
    totalTime: null,
    prepTime: null,
    cookTime: null,
    performTime: null,
    categories: [],
    tags: [],
    tools: [],
    orgURL: null,
    nutrition: {},
    settings: {},
    extras: {},
    dateAdded: null,
    dateUpdated: null,
    lastMade: null,
    image: null,
    assets: [],
    ingredients: [],
    instructions: [],
    notes: [],
  };
}
