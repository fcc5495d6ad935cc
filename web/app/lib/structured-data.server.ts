/** schema.org Recipe JSON-LD and OpenGraph tags for the recipe page (search engines, link previews). */
import type { Recipe } from "../../../core/schemas/recipe.js";
import { NUTRITION_ROWS, recipeImageUrl, toIsoDuration, withUnit, yieldText } from "./format.js";
import { htmlToText } from "./markdown.js";
import { memoText, renderMarkdownMemo } from "./memo-text.server.js";

// The search engines' plain text of a Markdown text depends on the text alone: made once per text, from
// the rendering the page itself shows (so a first view renders each text once, not twice).
const markdownToText = memoText((text) => (text ? htmlToText(renderMarkdownMemo(text)) : ""));

export interface RecipeMetaInput {
  recipe: Recipe;
  /** Absolute origin the page was requested on, e.g. "https://recipes.example". */
  origin: string;
  /** Absolute URL of the recipe page. */
  url: string;
}

const NUTRITION_LD: Record<string, string> = {
  calories: "calories",
  fatContent: "fatContent",
  saturatedFatContent: "saturatedFatContent",
  transFatContent: "transFatContent",
  unsaturatedFatContent: "unsaturatedFatContent",
  cholesterolContent: "cholesterolContent",
  sodiumContent: "sodiumContent",
  carbohydrateContent: "carbohydrateContent",
  fiberContent: "fiberContent",
  sugarContent: "sugarContent",
  proteinContent: "proteinContent",
};

export function recipeJsonLd({ recipe, origin, url }: RecipeMetaInput): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Recipe",
    name: recipe.name,
    url,
  };
  const description = markdownToText(recipe.description);
  if (description) ld.description = description;
  if (recipe.image) {
    ld.image = (["original", "min-original"] as const).map(
      (s) => origin + recipeImageUrl(recipe.id, s, recipe.image),
    );
  }
  for (const key of ["prepTime", "cookTime", "totalTime"] as const) {
    const iso = toIsoDuration(recipe[key] ?? (key === "cookTime" ? recipe.performTime : null));
    if (iso) ld[key] = iso;
  }
  const y = yieldText(recipe);
  const yields = [y.servings, y.yield].filter((v): v is string => !!v);
  if (yields.length) ld.recipeYield = yields;
  if (recipe.recipeCategory.length) ld.recipeCategory = recipe.recipeCategory.map((c) => c.name);
  if (recipe.tags.length) ld.keywords = recipe.tags.map((t) => t.name).join(", ");
  if (recipe.dateAdded) ld.datePublished = recipe.dateAdded;
  if (recipe.dateUpdated) ld.dateModified = recipe.dateUpdated;
  const ingredients = recipe.recipeIngredient.map((i) => markdownToText(i.display)).filter(Boolean);
  if (ingredients.length) ld.recipeIngredient = ingredients;
  const steps = recipe.recipeInstructions
    .map((s) => ({
      "@type": "HowToStep",
      ...(s.title ? { name: s.title } : {}),
      text: markdownToText(s.text),
    }))
    .filter((s) => s.text);
  if (steps.length) ld.recipeInstructions = steps;
  const nutrition: Record<string, string> = {};
  for (const [key, , unit] of NUTRITION_ROWS) {
    const v = recipe.nutrition?.[key];
    if (v != null && String(v).trim())
      nutrition[NUTRITION_LD[key]] = withUnit(String(v), key === "calories" ? "calories" : unit);
  }
  if (Object.keys(nutrition).length) ld.nutrition = { "@type": "NutritionInformation", ...nutrition };
  if (recipe.orgURL && /^https?:\/\//i.test(recipe.orgURL)) ld.isBasedOn = recipe.orgURL;
  return ld;
}

/** OpenGraph + Twitter card tags, as Remix MetaDescriptors. */
export function recipeOpenGraph({
  recipe,
  origin,
  url,
}: RecipeMetaInput): { property?: string; name?: string; content: string }[] {
  const description = markdownToText(recipe.description).slice(0, 300);
  const tags: { property?: string; name?: string; content: string }[] = [
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: "Larder" },
    { property: "og:title", content: recipe.name },
    { property: "og:url", content: url },
  ];
  if (description) {
    tags.push(
      { property: "og:description", content: description },
      { name: "description", content: description },
    );
  }
  if (recipe.image) {
    const img = origin + recipeImageUrl(recipe.id, "original", recipe.image);
    tags.push({ property: "og:image", content: img }, { property: "og:image:alt", content: recipe.name });
    tags.push(
      { name: "twitter:card", content: "summary_large_image" },
      { name: "twitter:image", content: img },
    );
  } else {
    tags.push({ name: "twitter:card", content: "summary" });
  }
  tags.push({ name: "twitter:title", content: recipe.name });
  return tags;
}
