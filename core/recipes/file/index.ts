/** The recipe file format (docs/recipe-format.md): reading and writing one recipe file. */
export { parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";
export { RecipeFileError } from "./errors.js";
export { canonicalIngredientLine, formatIngredientLine, parseIngredientLine } from "./ingredient-line.js";
export { compileVocabulary } from "./vocabulary.js";
export { normaliseBlock, normaliseLine } from "./text.js";
