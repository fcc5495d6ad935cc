/**
 * A recipe zip → one recipe. Both Larder's zip (core/exports/recipe-zip.ts) and Mealie's carry the recipe
 * as Mealie export JSON (`<slug>.json`, snake_case); Mealie reads the first `*.json`, and so do we,
 * preferring one at the top level. The image: an `original.<ext>` that is not WebP first (Larder keeps
 * the original there when it was not WebP), else the first `*.webp`, else any other image.
 */
import { readFile } from "node:fs/promises";
import type { ImportedRecipe, ImportInput, PluginContext } from "../../../core/plugins/kinds.js";
import { PluginInputError } from "../../../core/plugins/registry.js";
import { DEFAULT_ZIP_LIMITS, readZip, type ZipLimits } from "../../../core/imports/safe-zip.js";
import { camelizeKeys } from "../../../core/util/case.js";

const IMAGE = /\.(webp|jpe?g|png|gif|avif)$/i;
const depth = (n: string) => n.split("/").length;
const folderOf = (n: string) => n.slice(0, n.lastIndexOf("/"));
/** One recipe's JSON and one image: far below a backup's limits. */
const RECIPE_ZIP_LIMITS: ZipLimits = { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: 32 * 1024 * 1024 };

export async function readRecipeZip(input: ImportInput, _ctx: PluginContext): Promise<ImportedRecipe[]> {
  if (input.type !== "zip") throw new PluginInputError("recipe-zip reads zip archives only");
  const data = await readFile(input.path);
  // Only the two entries used are read (chosen from the listing): reading every JSON and image held
  // all of an archive's big entries in memory at once, and a few such uploads filled the server's.
  let chosen: Set<string> | null = null;
  let jsonName: string | undefined;
  let imageName: string | undefined;
  let several = 0;
  const { files } = await readZip(
    data,
    (e, all) => {
      if (!chosen) {
        const names = all.map((x) => x.name);
        const json = names.filter((n) => /\.json$/i.test(n)).sort((a, b) => depth(a) - depth(b));
        jsonName = json[0];
        // Recipe JSON side by side in different folders (Nextcloud's `<name>/recipe.json`): many recipes.
        if (jsonName !== undefined && depth(jsonName) > 1)
          several = new Set(json.filter((n) => depth(n) === depth(jsonName!)).map(folderOf)).size;
        imageName = pickImage(names);
        chosen = new Set([jsonName, imageName].filter((n): n is string => n !== undefined));
      }
      return chosen.has(e.name);
    },
    RECIPE_ZIP_LIMITS,
  );
  if (!jsonName) throw new PluginInputError("The archive holds no recipe JSON (*.json)");
  if (several > 1)
    throw new PluginInputError(
      `The archive holds ${several} recipes, in folders of their own: a recipe zip holds one. ` +
        "An export of another app comes in through its migration (Import from another app)",
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(files.get(jsonName)!.toString("utf8"));
  } catch {
    throw new PluginInputError(`${jsonName} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new PluginInputError(`${jsonName} does not hold a recipe`);
  const recipe = camelizeKeys(parsed) as Record<string, unknown>;
  if (typeof recipe.name !== "string" || !recipe.name.trim())
    throw new PluginInputError(`${jsonName} has no recipe name`);
  const image = imageName === undefined ? undefined : files.get(imageName);
  return [{ recipe, ...(image ? { image: { bytes: image } } : {}) }];
}

/** The recipe's image: an original, else a webp (Mealie's export), else the shallowest image. */
function pickImage(names: readonly string[]): string | undefined {
  const images = names.filter((n) => IMAGE.test(n)).sort((a, b) => depth(a) - depth(b));
  return (
    images.find((n) => /(^|\/)original\.(jpe?g|png|gif|avif)$/i.test(n)) ??
    images.find((n) => /\.webp$/i.test(n)) ??
    images[0]
  );
}
