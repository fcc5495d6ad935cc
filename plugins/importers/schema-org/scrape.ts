/** From an import input to recipes: fetch (for a URL), find the schema.org Recipe, clean it. */
import type { ImportedRecipe, ImportInput, PluginContext } from "../../../core/plugins/kinds.js";
import { PluginInputError } from "../../../core/plugins/registry.js";
import { BadRecipeDataError } from "../../../core/imports/errors.js";
import { parsePage } from "./extract.js";
import { MAX_NESTING, nestsTooDeep } from "./nesting.js";
import { cleanRecipe, schemaView, toWireRecipe, type CleanRecipe } from "./normalise.js";
import { fetchPage, urlIn } from "./page.js";

async function read(
  input: ImportInput,
  ctx: PluginContext,
): Promise<{ page: ReturnType<typeof parsePage>; clean: CleanRecipe; url: string | null }> {
  let html: string;
  let url: string | null = null;
  if (input.type === "url") {
    const target = urlIn(input.url);
    if (!target) throw new BadRecipeDataError("No URL was given");
    const fetched = await fetchPage(target, ctx);
    html = fetched.html;
    url = target;
  } else if (input.type === "html") {
    html = input.html;
    url = input.url ?? null;
  } else if (input.type === "json") {
    html = `<script type="application/ld+json">${JSON.stringify(input.json).replace(/</g, "\\u003c")}</script>`;
    url = input.url ?? null;
  } else {
    throw new PluginInputError("The schema-org importer reads pages, HTML and JSON only");
  }
  // A JSON document served or pasted as such is read as JSON-LD.
  const trimmed = html.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("["))
    html = `<script type="application/ld+json">${html}</script>`;
  if (nestsTooDeep(html))
    throw new BadRecipeDataError(
      `The page nests its elements more than ${MAX_NESTING.toLocaleString("en")} deep; no recipe page does`,
    );
  let page: ReturnType<typeof parsePage>;
  let clean: CleanRecipe | null;
  try {
    page = parsePage(html);
    clean = cleanRecipe(page, url);
  } catch (e) {
    // A page this reader trips over is a page it cannot read, not a broken plugin: one odd page must
    // not switch page import off for everyone (the registry disables plugins that throw).
    ctx.log?.warn(
      `schema-org: could not read ${url ?? "the pasted page"}:`,
      e instanceof Error ? e.message : e,
    );
    throw new BadRecipeDataError("The page could not be read");
  }
  if (!clean) {
    throw new BadRecipeDataError(
      page.brokenJsonLd > 0
        ? "The page's recipe data (JSON-LD) could not be read"
        : "No recipe was found in the page",
    );
  }
  if (
    clean.source !== "opengraph" &&
    clean.ingredients.length === 0 &&
    clean.instructions.length === 0 &&
    !clean.title
  ) {
    throw new BadRecipeDataError("The page's recipe has no title, ingredients or instructions");
  }
  // Which lists came from the page's markup rather than its schema.org data (decision 0151), for
  // whoever wonders why an import differs from the page's JSON-LD.
  const fromMarkup = (["ingredients", "instructions"] as const).filter(
    (k) => clean.read[k] !== "schema" && clean.read[k] !== "none",
  );
  if (fromMarkup.length)
    ctx.log?.info(
      `schema-org: ${url ?? "pasted page"}: ${fromMarkup.map((k) => `${k} from the markup (${clean.read[k]})`).join(", ")}`,
    );
  return { page, clean, url };
}

export async function importPage(input: ImportInput, ctx: PluginContext): Promise<ImportedRecipe[]> {
  const { clean, url } = await read(input, ctx);
  const recipe = toWireRecipe(clean, { includeTags: true, includeCategories: true, orgURL: url ?? "" });
  return [{ recipe, ...(clean.image ? { image: { url: clean.image } } : {}) }];
}

export async function inspectPage(input: ImportInput, ctx: PluginContext): Promise<unknown> {
  const { page, clean } = await read(input, ctx);
  return schemaView(page, clean);
}
