/** The `openai-vision` importer: recipes from photos through an OpenAI-compatible chat API. */
import { definePlugin } from "../../../core/plugins/define.js";
import type { ImportInput, PluginContext } from "../../../core/plugins/kinds.js";

export default definePlugin({
  kind: "importer",
  name: "openai-vision",
  description: "Recipes from photos (OpenAI-compatible chat API with vision)",
  accepts: (input: ImportInput) => input.type === "images",
  async import(input: ImportInput, ctx: PluginContext) {
    return (await import("./read.js")).recipeFromPhotos(input, ctx);
  },
});
