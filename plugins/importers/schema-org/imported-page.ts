/**
 * For the importer's tests of invented pages: a page imported as the API would import it, with the
 * fields a user sees laid out for assertions.
 */
import type { PluginContext } from "../../../core/plugins/kinds.js";
import { importPage } from "./scrape.js";

/** The imported recipe's fields the page tests read. */
export type ImportedWire = {
  name: string;
  recipeIngredient: { note: string; title: string | null }[];
  recipeInstructions: { text: string; title: string; summary: string }[];
  recipeYield: string | null;
  recipeServings?: number;
  totalTime: string | null;
  prepTime: string | null;
  performTime: string | null;
  tags: string[];
  recipeCategory: string[];
  nutrition: Record<string, string>;
};

const ctx = {} as PluginContext;

/** The page imported from `url`: the recipe, its image's address, its ingredients' and steps' text. */
export async function importedPage(html: string, url: string) {
  const [r] = await importPage({ type: "html", html, url }, ctx);
  const recipe = r.recipe as unknown as ImportedWire;
  return {
    recipe,
    image: r.image && "url" in r.image ? r.image.url : null,
    ingredients: recipe.recipeIngredient.map((i) => i.note),
    steps: recipe.recipeInstructions.map((s) => s.text),
  };
}
