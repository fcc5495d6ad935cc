/**
 * The recipe zip: what "download" gives and what both Larder and Mealie can import again.
 *
 *   <slug>.md        the recipe file, as on disk (Larder's own format)
 *   <slug>.json      the recipe in Mealie's export JSON (snake_case; Mealie's zip import reads the first *.json)
 *   original.webp    the image as WebP (Mealie's zip import reads the first *.webp)
 *   original.<ext>   the original image when it is not WebP already, so nothing is lost to re-encoding
 *   assets/<file>    the recipe's listed assets
 *
 * Bulk exports put the same entries under `recipes/<slug>/`.
 */
import { createWriteStream } from "node:fs";
import { lstat, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ZipArchive } from "archiver";
import type { Parts } from "../parts.js";
import { newZipArchive } from "../util/zip-archive.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { serializeRecipeFile } from "../recipes/file/index.js";
import { readFileInside } from "../media/safe-path.js";
import { mealieExportJson } from "./mealie-json.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "images" | "log" | "recipes">;

type Archive = InstanceType<typeof ZipArchive>;

/** The recipe's Markdown: the file on disk when it is a plain, readable file; else written from the index. */
export async function recipeMarkdown(larder: Deps, entry: RecipeEntry): Promise<string> {
  const file = larder.folder.recipeFile(entry.groupSlug, entry.slug);
  if (!entry.broken) {
    try {
      const st = await lstat(file);
      if (st.isFile()) return await readFile(file, "utf8");
    } catch {
      // gone since indexed: fall through to the index's version
    }
  }
  return serializeRecipeFile(entry.doc, larder.recipes.lookupsFor(entry.groupSlug).vocabulary);
}

/** Add one recipe's entries to an archive, under `prefix` ("" or "recipes/<slug>/"). */
export async function appendRecipe(
  larder: Deps,
  archive: Archive,
  entry: RecipeEntry,
  prefix = "",
): Promise<void> {
  const date = new Date(entry.doc.dateUpdated ?? Date.now());
  const at = Number.isNaN(date.getTime()) ? new Date() : date;
  archive.append(await recipeMarkdown(larder, entry), { name: `${prefix}${entry.slug}.md`, date: at });
  archive.append(mealieExportJson(larder.recipes.recipeOf(entry)), {
    name: `${prefix}${entry.slug}.json`,
    date: at,
  });
  const original = await larder.images.originalPath(entry.groupSlug, entry.slug);
  if (original) {
    try {
      const webp = await larder.images.get(entry.id, "original.webp");
      archive.append(webp.data, { name: `${prefix}original.webp`, date: at });
      if (!original.toLowerCase().endsWith(".webp")) {
        const src = await readFileInside(larder.folder.root, dirname(original), basename(original));
        archive.append(src.data, { name: `${prefix}${basename(original)}`, date: at });
      }
    } catch (e) {
      // An unreadable image must not cost the user the recipe itself.
      larder.log.warn(`export of ${entry.groupSlug}/${entry.slug}: image skipped:`, e);
    }
  }
  const assetsDir = join(larder.folder.recipeMediaDir(entry.groupSlug, entry.slug), "assets");
  for (const asset of entry.doc.assets) {
    if (!asset.fileName) continue;
    try {
      const { data } = await readFileInside(larder.folder.root, assetsDir, asset.fileName);
      archive.append(data, { name: `${prefix}assets/${asset.fileName}`, date: at });
    } catch {
      // a listed asset whose file is missing (or unsafe) is left out
    }
  }
}

/** One recipe's zip, in memory (a recipe and its image are small). */
export async function recipeZip(larder: Deps, entry: RecipeEntry): Promise<Buffer> {
  const archive = await newZipArchive();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    archive.on("data", (c: Buffer) => chunks.push(c));
    archive.on("end", () => resolve());
    archive.on("error", reject);
  });
  done.catch(() => undefined);
  await appendRecipe(larder, archive, entry);
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** Several recipes' zip, streamed to `target` through a temp file (renamed into place when complete). */
export async function writeRecipesZip(larder: Deps, entries: RecipeEntry[], target: string): Promise<number> {
  const tmp = join(larder.folder.tmpDir, `export.${process.pid}.${randomBytes(6).toString("hex")}.zip.tmp`);
  const archive = await newZipArchive();
  const out = createWriteStream(tmp, { mode: 0o600 });
  const written = new Promise<void>((resolve, reject) => {
    out.on("close", () => resolve());
    out.on("error", reject);
    archive.on("error", reject);
  });
  // The disk can refuse the file before `written` is awaited: its rejection must not go unhandled.
  written.catch(() => undefined);
  archive.pipe(out);
  try {
    for (const entry of entries) await appendRecipe(larder, archive, entry, `recipes/${entry.slug}/`);
    await archive.finalize();
    await written;
    await rename(tmp, target);
    return (await lstat(target)).size;
  } catch (e) {
    archive.abort();
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * One recipe of a group as `larder export` writes it: Markdown (the file itself), Mealie's JSON, or
 * the recipe zip. null when the group has no such recipe.
 */
export async function exportRecipeAs(
  larder: Deps,
  groupSlug: string,
  slug: string,
  format: "md" | "json" | "zip",
): Promise<string | Buffer | null> {
  const entry = larder.recipes.store.get(groupSlug, slug);
  if (!entry) return null;
  if (format === "md") return recipeMarkdown(larder, entry);
  if (format === "zip") return recipeZip(larder, entry);
  const { mealieExportJson } = await import("./mealie-json.js");
  return mealieExportJson(larder.recipes.recipeOf(entry));
}
