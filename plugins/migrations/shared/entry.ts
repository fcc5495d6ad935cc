/**
 * Building report entries from what a reader found. A reader yields one entry per recipe: the cleaned
 * recipe and its image, or the reason it could not be read, so one bad recipe never stops the rest.
 */
import { parse as parseYaml } from "yaml";
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import type { CleanRecipe, Loose } from "./clean.js";
import { WrongTypeError } from "./errors.js";
import { type Archive, imageType, shownName } from "./archive.js";

/** Largest image taken from an export (the image service checks it again when it stores it). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** A recipe's picture: bytes from the archive, a URL to fetch, or why it was left out. */
export type Picture = { bytes: Buffer; path?: string } | { url: string } | { problem: string } | null;

/**
 * The picture at `path` in the archive. One that cannot be read (larger than an export's picture can
 * be, damaged) is left out and said, as an import drops a picture it cannot use: it never costs its recipe.
 */
export async function pictureAt(archive: Pick<Archive, "read">, path: string): Promise<Picture> {
  try {
    return { bytes: await archive.read(path, MAX_IMAGE_BYTES), path };
  } catch (e) {
    return { problem: `its picture ${path} was not kept (${(e as Error).message})` };
  }
}

/** Give a read recipe its picture: the image, or a warning that it was left out. */
export function attachPicture(entry: MigratedEntry, img: Picture): void {
  if (!entry.ok) return;
  if (img && "bytes" in img && img.bytes.length > 0) {
    entry.imported.image = { bytes: img.bytes, contentType: (img.path && imageType(img.path)) || undefined };
  } else if (img && "url" in img && /^https?:\/\//i.test(img.url)) {
    entry.imported.image = { url: img.url };
  } else if (img && "problem" in img) {
    entry.warnings = [...(entry.warnings ?? []), img.problem];
  }
}

export function ok(
  recipe: CleanRecipe,
  opts: { image?: Picture; sourceId?: string | null } = {},
): MigratedEntry {
  const entry: MigratedEntry = {
    ok: true,
    name: recipe.name,
    imported: { recipe: recipe as unknown as Record<string, unknown> },
  };
  attachPicture(entry, opts.image ?? null);
  const sourceId = opts.sourceId ?? recipe.orgURL ?? null;
  if (sourceId) entry.sourceId = sourceId;
  return entry;
}

/** A recipe file's JSON as an object, or an error that names the file (`what`) and what is wrong. */
export function recipeObject(text: string, what: string): Loose {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} is not valid JSON (${(e as Error).message})`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    throw new Error(`${what} does not hold a recipe object`);
  return json as Loose;
}

export function failed(name: string, err: unknown): MigratedEntry {
  const e = err as { name?: string; message?: string };
  return { ok: false, name, error: `${e?.name ?? "Error"}: ${e?.message ?? String(err)}` };
}

/** Split YAML front matter from a Markdown body. JavaScript front matter (`---js`) is never run. */
export function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const t = text.replace(/^\uFEFF/, "");
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(t);
  if (!m) return { data: {}, body: t };
  const data = parseYaml(m[1], { maxAliasCount: 50 }) as unknown;
  return {
    data: data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    body: t.slice(m[0].length),
  };
}

/** The archive is not what this migration reads: say which migration it expected and what was missing. */
export function wrongType(type: string, missing: string): WrongTypeError {
  return new WrongTypeError(`This archive is not a ${type} export: ${missing}. Check the migration type.`);
}

/** The archive's unsafe entries, passed over and never read, as the report lists them (decision 0280). */
export function skippedEntries(archive: Pick<Archive, "skipped">): MigratedEntry[] {
  return archive.skipped.map((s) => ({
    ok: false,
    skipped: true,
    name: `entry '${shownName(s.name)}' of the archive`,
    error: `${s.why}: it was not read, and nothing was written from it`,
  }));
}
