/**
 * The `schema-org` importer: recipe pages by URL, pasted HTML, or schema.org JSON. Light on purpose:
 * the HTML parser and the normaliser load on first use.
 */
import { definePlugin } from "../../../core/plugins/define.js";
import type { ImportInput, PluginContext } from "../../../core/plugins/kinds.js";

const load = () => import("./scrape.js");

export default definePlugin({
  kind: "importer",
  name: "schema-org",
  description: "Recipe pages: schema.org JSON-LD, microdata, the page's markup, then OpenGraph",
  accepts: (input: ImportInput) => input.type === "url" || input.type === "html" || input.type === "json",
  async import(input: ImportInput, ctx: PluginContext) {
    return (await load()).importPage(input, ctx);
  },
  async inspect(input: ImportInput, ctx: PluginContext) {
    return (await load()).inspectPage(input, ctx);
  },
});
