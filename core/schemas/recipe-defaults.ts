/**
 * Recipe constants the file reader needs, apart from the zod schemas (recipe.ts re-exports them): a
 * worker thread that parses recipe files then loads neither zod nor its locales (decision 0167).
 */
export const NUTRITION_KEYS = [
  "calories",
  "carbohydrateContent",
  "cholesterolContent",
  "fatContent",
  "fiberContent",
  "proteinContent",
  "saturatedFatContent",
  "sodiumContent",
  "sugarContent",
  "transFatContent",
  "unsaturatedFatContent",
] as const;
export type NutritionKey = (typeof NUTRITION_KEYS)[number];

/** Contract defaults (RecipeSettings); `disableAmount` is Larder's optional extra (mealie-api-notes §0.1). */
export const RECIPE_SETTINGS_DEFAULTS = {
  public: false,
  showNutrition: false,
  showAssets: false,
  landscapeView: false,
  disableComments: true,
  locked: false,
  disableAmount: false,
} as const;
export type RecipeSettings = { -readonly [K in keyof typeof RECIPE_SETTINGS_DEFAULTS]: boolean };
/** The settings' keys, in the wire's order. */
export const RECIPE_SETTING_KEYS = Object.keys(RECIPE_SETTINGS_DEFAULTS) as readonly (keyof RecipeSettings)[];
