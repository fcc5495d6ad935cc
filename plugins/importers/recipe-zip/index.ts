/** The `recipe-zip` importer: Larder's own recipe zip and Mealie's single-recipe export (mealie-api-notes §5.6). */
import { definePlugin } from "../../../core/plugins/define.js";
import type { ImportInput, PluginContext } from "../../../core/plugins/kinds.js";

export default definePlugin({
  kind: "importer",
  name: "recipe-zip",
  description: "Recipe zips: Larder's download and Mealie's single-recipe export",
  accepts: (input: ImportInput) => input.type === "zip",
  async import(input: ImportInput, ctx: PluginContext) {
    return (await import("./read.js")).readRecipeZip(input, ctx);
  },
});
