/** The built-in importers plugins, one folder each (`plugins/importers/<name>/`). Keep this module light: a plugin loads heavy code on first use. */
import schemaOrg from "./schema-org/index.js";
import recipeZip from "./recipe-zip/index.js";
import openaiVision from "./openai-vision/index.js";

export const importers: readonly unknown[] = [schemaOrg, recipeZip, openaiVision];
