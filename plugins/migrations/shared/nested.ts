/**
 * An export handed over zipped again: the upload's only file is the export itself (`nextcloud.zip`
 * inside `Archive.zip`, a `.paprikarecipes` zipped for mailing, the export inside a `Downloads/` folder
 * beside a Mac's `__MACOSX/`). When a reader finds none of its files, that sole archive is read instead.
 */
import type { MigratedEntry } from "../../../core/plugins/kinds.js";
import {
  type Archive,
  type ArchiveEntry,
  type ReaderContext,
  DEFAULT_LIMITS,
  isJunk,
  isZip,
  openZip,
} from "./archive.js";
import { MigrationInputError, WrongTypeError } from "./errors.js";

/**
 * Largest inner export read: it is held in memory while it is read, so it is capped like the gzip of a
 * Paprika recipe, far above a zipped-again export of recipes and far below what would strain a server.
 */
export const MAX_NESTED_EXPORT_BYTES = 512 * 1024 * 1024;

/** How much a zip inside a zip may shrink; an export of text stored without compression shrinks ~5×. */
const MAX_REZIP_RATIO = 10;

/** How many times an export may have been zipped again; more is not something a person does. */
const MAX_UNWRAP = 2;

/**
 * Whether an entry may be an export zipped again, as far as its sizes tell. A zip hardly shrinks when
 * zipped again; one that inflates many times over past an ordinary entry's cap is a bomb, and is not
 * read into memory to find out.
 */
export function mayBeZippedExport(entry: ArchiveEntry): boolean {
  return (
    entry.size <= DEFAULT_LIMITS.maxEntryBytes || entry.size <= (entry.packed ?? entry.size) * MAX_REZIP_RATIO
  );
}

/** The archive inside `archive` when it is the only file there, else null. */
export async function soleInnerArchive(archive: Archive): Promise<Archive | null> {
  const files = archive.entries.filter((e) => !isJunk(e.path) && e.size > 0);
  if (files.length !== 1) return null;
  const [only] = files;
  if (!mayBeZippedExport(only)) return null;
  if (only.size > MAX_NESTED_EXPORT_BYTES)
    throw new MigrationInputError(
      `The upload holds one archive, ${only.path}, larger than ${MAX_NESTED_EXPORT_BYTES} bytes: upload that archive itself`,
    );
  const bytes = await archive.read(only.path, MAX_NESTED_EXPORT_BYTES);
  if (!isZip(bytes)) return null;
  return openZip(bytes, undefined, 1, { skipped: archive.skipped, prefix: `${only.path}/` });
}

type Reader = (archive: Archive, ctx: ReaderContext) => AsyncIterable<MigratedEntry>;

/** The reader over the archive, or over the sole archive inside it when it finds none of its files there. */
export async function* readUnwrapping(
  read: Reader,
  archive: Archive,
  ctx: ReaderContext,
  depth = 0,
): AsyncGenerator<MigratedEntry> {
  const it = read(archive, ctx)[Symbol.asyncIterator]();
  let first: IteratorResult<MigratedEntry>;
  try {
    first = await it.next();
  } catch (e) {
    if (!(e instanceof WrongTypeError) || depth >= MAX_UNWRAP) throw e;
    const inner = await soleInnerArchive(archive);
    if (!inner) throw e;
    try {
      yield* readUnwrapping(read, inner, ctx, depth + 1);
    } catch (e2) {
      // The inner archive is not this format either: the outer's message names what was looked for.
      throw e2 instanceof WrongTypeError ? e : e2;
    } finally {
      inner.close();
    }
    return;
  }
  try {
    for (let next = first; !next.done; next = await it.next()) yield next.value;
  } finally {
    await it.return?.();
  }
}

/**
 * The same for a reader that reads the whole upload at once (a Mealie backup), with the archive it was
 * read from: the upload, or the one inside it, which stays open for what the result reads later (a
 * backup's pictures). The caller closes it.
 */
export async function readSiteUnwrapping<T>(
  read: (archive: Archive) => Promise<T>,
  archive: Archive,
): Promise<{ value: T; from: Archive }> {
  try {
    return { value: await read(archive), from: archive };
  } catch (e) {
    if (!(e instanceof WrongTypeError)) throw e;
    const inner = await soleInnerArchive(archive);
    if (!inner) throw e;
    try {
      return { value: await read(inner), from: inner };
    } catch (e2) {
      inner.close();
      throw e2 instanceof WrongTypeError ? e : e2;
    }
  }
}
