/**
 * Recipe assets: files attached to a recipe (a PDF, a scan, a video), stored in its media folder's
 * `assets/` and listed with name and icon in the front matter. The file name is built from the asset's
 * name and extension, never taken from the client: `slugify(name) + "." + extension`, where the
 * extension is the part after the last dot and must be short and alphanumeric. Anything that looks
 * like a path is refused (400) rather than quietly cleaned, so a client trying `../` learns it failed.
 */
import { join } from "node:path";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { RecipeAsset } from "../schemas/recipe.js";
import { BadRequestError, NotFoundError, PayloadTooLargeError } from "../errors.js";
import { writeFileAtomic } from "../storage/atomic-write.js";
import { isUuid } from "../util/ids.js";
import { slugify } from "../util/slug.js";
import { assertMayEditRecipe, findHouseholdRecipe, touchedDoc } from "./recipe-scope.js";
import { isPlainFileName, readFileInside, realDirInside } from "./safe-path.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "config" | "folder" | "groups" | "recipes">;

const MAX_NAME = 200;
const MAX_ICON = 100;
const EXTENSION_RE = /^[a-z0-9]{1,16}$/i;

export interface AssetUpload {
  name: string;
  icon: string;
  extension: string;
  data: Buffer;
}

/** Types served inline; everything else is a download, so an uploaded HTML or SVG file never runs as our page. */
const INLINE_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  pdf: "application/pdf",
  txt: "text/plain; charset=utf-8",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
};

/** The asset file name for a name and extension, or a 400 when either looks like a path. */
export function assetFileName(name: string, extension: string): string {
  if (typeof name !== "string" || !name.trim() || name.length > MAX_NAME)
    throw new BadRequestError("Invalid asset name");
  if (/[/\\\0]/.test(name) || name.includes("..")) throw new BadRequestError("Invalid asset name");
  if (typeof extension !== "string" || /[/\\\0]/.test(extension) || extension.includes(".."))
    throw new BadRequestError("Invalid asset extension");
  const ext = extension.trim().split(".").pop() ?? "";
  if (!EXTENSION_RE.test(ext)) throw new BadRequestError("Invalid asset extension");
  const slug = slugify(name).slice(0, 100).replace(/-+$/, "");
  if (!slug) throw new BadRequestError("Invalid asset name");
  const fileName = `${slug}.${ext.toLowerCase()}`;
  // Belt and braces: whatever the rules above let through must still be one plain file name.
  if (!isPlainFileName(fileName)) throw new BadRequestError("Invalid asset name");
  return fileName;
}

export class AssetsService {
  constructor(private larder: Deps) {}

  /** POST /recipes/{slug}/assets: store the file in the recipe's `assets/` and list it in the recipe. */
  async upload(actor: Actor, slugOrId: string, input: AssetUpload): Promise<RecipeAsset> {
    const { entry, group, user } = findHouseholdRecipe(this.larder, actor, slugOrId);
    assertMayEditRecipe(this.larder, user, entry);
    const fileName = assetFileName(input.name, input.extension);
    const icon =
      String(input.icon ?? "")
        .trim()
        .slice(0, MAX_ICON) || "mdi-file";
    if (input.data.length > this.larder.config.maxUploadBytes)
      throw new PayloadTooLargeError("Uploaded file is too large");
    const folder = this.larder.folder;
    const dir = join(folder.recipeMediaDir(group.slug, entry.slug), "assets");
    const real = await realDirInside(folder.root, dir, true);
    await writeFileAtomic(join(real, fileName), input.data, { tmpDir: folder.tmpDir });
    const asset: RecipeAsset = { name: input.name.trim(), icon, fileName };
    await this.larder.recipes.changeById(entry.id, (current) => {
      const doc = touchedDoc(current);
      // Uploading the same name again replaces the file, so it replaces the listing too.
      doc.assets = [...doc.assets.filter((a) => a.fileName !== fileName), asset];
      return doc;
    });
    return asset;
  }

  /** GET /api/media/recipes/{id}/assets/{file}: public like Mealie's media; 404 for anything unsafe. */
  async read(
    recipeId: string,
    fileName: string,
  ): Promise<{ data: Buffer; contentType: string; inline: boolean }> {
    if (!isUuid(recipeId) || !isPlainFileName(fileName)) throw new NotFoundError("File not found");
    const entry = this.larder.recipes.entryById(recipeId);
    if (!entry) throw new NotFoundError("File not found");
    const dir = join(this.larder.folder.recipeMediaDir(entry.groupSlug, entry.slug), "assets");
    const { data } = await readFileInside(this.larder.folder.root, dir, fileName);
    const ext = fileName.includes(".") ? (fileName.split(".").pop() ?? "").toLowerCase() : "";
    const type = INLINE_TYPES[ext];
    return { data, contentType: type ?? "application/octet-stream", inline: type !== undefined };
  }
}
