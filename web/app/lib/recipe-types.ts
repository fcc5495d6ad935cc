/**
 * The shapes the recipe screens share between server (loaders, actions) and browser (components).
 * Types only: importing this module costs the bundle nothing.
 */
import type { ScalableIngredient } from "./scale.js";
import type { RecipeMenu } from "./pure-core.js";
import type { RecipeActionItem } from "./recipe-actions.js";

export interface ChipLink {
  name: string;
  slug: string;
}

export interface ViewIngredient {
  key: string;
  /** Section heading that starts here (spec §3 Ingredient.title). */
  title: string | null;
  /** Structured, scalable parts; null when the recipe turns amounts off (then `html` is the whole line). */
  parts: ScalableIngredient | null;
  /** The line as core displays it, sanitised (b, q, i, strong, sup only). */
  html: string;
  /**
   * The line as its author wrote it ("4 tablespoons unsalted butter, melted"), shown at the recipe's own
   * amounts instead of the parts in the group's names ("4 tbsp butter melted"); null when core has none.
   */
  written?: string | null;
}

export interface ViewStep {
  key: string;
  title: string | null;
  summary: string | null;
  html: string;
  /** Ingredient keys this step uses. */
  refs: string[];
}

export type TimeKey = "total" | "prep" | "perform";
export type NutritionKey =
  | "calories"
  | "fatContent"
  | "saturatedFatContent"
  | "transFatContent"
  | "unsaturatedFatContent"
  | "cholesterolContent"
  | "sodiumContent"
  | "carbohydrateContent"
  | "fiberContent"
  | "sugarContent"
  | "proteinContent";

export interface RecipeView {
  id: string;
  slug: string;
  name: string;
  image: string | null;
  descriptionHtml: string;
  orgURL: string | null;
  times: { key: TimeKey; value: string }[];
  servings: number;
  yieldQuantity: number;
  yieldUnit: string | null;
  categories: ChipLink[];
  tags: ChipLink[];
  tools: ChipLink[];
  ingredients: ViewIngredient[];
  steps: ViewStep[];
  notes: { key: string; title: string; html: string }[];
  nutrition: { key: NutritionKey; value: string }[];
  /** The group average (spec §9: shown in half-steps). */
  rating: number | null;
  settings: { showNutrition: boolean; disableAmount: boolean; disableComments: boolean; locked: boolean };
  /** core's change stamp, sent back on save so a file changed on disk meanwhile is a 409, not lost. */
  updatedAt: string | null;
}

export interface CommentView {
  id: string;
  text: string;
  userName: string;
  createdAt: string;
  /** The viewer wrote it (or is an admin): they may edit and delete it. */
  mine: boolean;
}

export interface EditVocabulary {
  units: string[];
  foods: string[];
  categories: string[];
  tags: string[];
  tools: string[];
}

/** What the recipe page's loader sends. */
export interface RecipePageData {
  groupSlug: string;
  recipe: RecipeView;
  /** Signed in and in the recipe's group (spec §6): rating, favourite, comments, restricted menu items. */
  ownGroup: boolean;
  /** The signed-in user's id (only the owner may lock a recipe), or null. */
  viewerId: string | null;
  menu: RecipeMenu;
  /** The viewer's own rating and favourite; null for visitors. */
  me: { rating: number | null; isFavorite: boolean } | null;
  comments: CommentView[] | null;
  actions: RecipeActionItem[];
  /** Present in edit mode for a user who may edit: the wire recipe and the group's names for pickers. */
  edit: { recipe: Record<string, unknown>; vocabulary: EditVocabulary } | null;
  ld: Record<string, unknown>;
  og: { property?: string; name?: string; content: string }[];
}

/** What a recipe-page intent (the page's one Remix action) answers: codes, turned into toasts by the page. */
export type IntentError = "conflict" | "forbidden" | "notFound" | "invalid" | "tooLarge" | "failed";

export type IntentResult =
  | { intent: string; ok: true; slug?: string; token?: string; share?: ShareRow; sent?: boolean }
  | { intent: string; ok: false; error: IntentError; message?: string };

export interface ShareRow {
  id: string;
  expiresAt: string;
  createdAt: string;
}
