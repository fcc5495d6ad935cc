/**
 * Recipe exports (mealie-api-notes §4.6, §5.6): the formats list, a recipe as raw JSON or as its
 * Markdown file, the recipe zip behind a short-lived token, group bulk exports, and the file download
 * of `/api/utils/download`. Like Mealie, the per-recipe routes look the recipe up in the caller's
 * household (core/media/recipe-scope.ts).
 */
import type { FileHandle } from "node:fs/promises";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { findHouseholdRecipe } from "../media/recipe-scope.js";
import { openFileInside } from "../media/safe-path.js";
import { FileTokens } from "./file-tokens.js";
import { GroupExports } from "./group-exports.js";
import { rawRecipeJson } from "./mealie-json.js";
import { recipeMarkdown, recipeZip } from "./recipe-zip.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "groups" | "images" | "log" | "recipes">;

/**
 * `GET /recipes/exports`. The contract's FormatResponse has `json` and `zip`; Mealie adds `jinja2`
 * (its shipped template is `recipes.md`, a Markdown page of the recipe) and Larder adds `markdown`:
 * `template_name=markdown` gives the recipe's Markdown file. Larder renders no Jinja: `recipes.md`
 * answers the same Markdown file, so scripts written for Mealie's name get a Markdown recipe.
 */
export const EXPORT_FORMATS = { json: ["raw"], zip: ["zip"], jinja2: ["recipes.md"], markdown: ["markdown"] };

export interface ExportFile {
  data: Buffer;
  filename: string;
  contentType: string;
}

export class ExportsService {
  readonly groupExports: GroupExports;

  private constructor(
    private larder: Deps,
    readonly tokens: FileTokens,
  ) {
    this.groupExports = new GroupExports(larder, tokens);
  }

  static async open(larder: Deps): Promise<ExportsService> {
    return new ExportsService(larder, await FileTokens.open(larder.folder));
  }

  formats(): typeof EXPORT_FORMATS {
    return structuredClone(EXPORT_FORMATS);
  }

  /** POST /recipes/{slug}/exports → `{token}` for the zip route, valid 30 minutes. */
  async recipeToken(actor: Actor, slug: string): Promise<{ token: string }> {
    const { entry } = findHouseholdRecipe(this.larder, actor, slug);
    return { token: await this.tokens.signRecipe({ slug: entry.slug, group: entry.groupSlug }) };
  }

  /**
   * GET /recipes/{slug}/exports/zip?token=: the token is the credential (it opens in a new window);
   * 401 for a bad token, 400 "Invalid Slug" when it was made for another recipe.
   */
  async recipeZipByToken(actor: Actor, slug: string, token: string): Promise<ExportFile> {
    const claims = await this.tokens.verifyRecipe(token);
    if (claims.slug !== slug) throw new BadRequestError("Invalid Slug");
    // A signed-in caller of another group gets nothing even with a leaked token of this one.
    if (actor.kind === "user") {
      const own = this.larder.groups.byId(actor.user.groupId);
      if (own?.slug !== claims.group) throw new NotFoundError("No Entry Found");
    }
    const entry = this.larder.recipes.store.get(claims.group, claims.slug);
    if (!entry) throw new NotFoundError("No Entry Found");
    return this.zipOf(entry);
  }

  /** The recipe zip of an entry the caller may already read (share links, the zip template). */
  async zipOf(entry: RecipeEntry): Promise<ExportFile> {
    return {
      data: await recipeZip(this.larder, entry),
      filename: `${entry.slug}.zip`,
      contentType: "application/zip",
    };
  }

  /** GET /recipes/{slug}/exports?template_name=raw|markdown|zip. */
  async recipeAsFormat(actor: Actor, slug: string, template: string | null): Promise<ExportFile> {
    const { entry } = findHouseholdRecipe(this.larder, actor, slug);
    switch (template) {
      case "raw":
      case "json":
        return {
          data: Buffer.from(rawRecipeJson(this.larder.recipes.recipeOf(entry))),
          filename: `${entry.slug}.json`,
          contentType: "application/json",
        };
      case "markdown":
      case "md":
      case "recipes.md":
        return {
          data: await this.markdown(entry),
          filename: `${entry.slug}.md`,
          contentType: "text/markdown; charset=utf-8",
        };
      case "zip":
        return this.zipOf(entry);
      default:
        throw new NotFoundError("Template not found");
    }
  }

  private async markdown(entry: RecipeEntry): Promise<Buffer> {
    return Buffer.from(await recipeMarkdown(this.larder, entry));
  }

  /**
   * GET /api/utils/download?token=: open the file a file token names. The token says where, relative
   * to the data folder; FileTokens refuses paths outside the downloadable folders, and opening refuses
   * symlinks and anything whose real path leaves the folder.
   */
  async openDownload(token: string | null): Promise<{ handle: FileHandle; size: number; filename: string }> {
    if (!token) throw new BadRequestError("Missing token");
    const file = await this.tokens.resolveFile(token);
    const { handle, size } = await openFileInside(this.larder.folder.root, file.dir, file.name);
    return { handle, size, filename: file.name };
  }
}
