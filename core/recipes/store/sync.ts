/**
 * Bringing the index up to date with files on disk: the initial scan, the watcher's bursts, explicit
 * reloads. Applies the identity rules of ARCHITECTURE §3 (derived ids, duplicate ids, missing owner,
 * hand renames) and writes assigned ids and owners back into the files, once, only if unchanged.
 */
import { lstat } from "node:fs/promises";
import type { RecipeDoc, Vocabulary } from "../doc.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { readRecipeFile } from "./fast-read.js";
import { ReplacedFolderError, type DataFolder } from "../../storage/data-folder.js";
import type { Logger } from "../../log/logger.js";
import { isUuid } from "../../util/ids.js";
import { mapLimit } from "../../util/map-limit.js";
import { fingerprintOf, listRecipeFiles, readFileState, type FileFingerprint } from "./file-state.js";
import { replaceIfUnchanged } from "./replace-file.js";
import {
  cachedAtOpen,
  READ_PARALLELISM,
  readAtOpen,
  readOne,
  type Read,
  type StatsAhead,
} from "./read-files.js";
import { compactDoc, packedDoc, type CachedParse, type IndexCache } from "./index-cache.js";
import { withIdentity } from "./lazy-doc.js";
import {
  compareLocation,
  keyOf,
  patchFrontMatter,
  recipeIdFor,
  usableId,
  type IdentityPatch,
  type Location,
} from "./identity.js";
import type { RecipeIndex } from "./recipe-index.js";
import type { BrokenInfo, RecipeChange, RecipeEntry } from "./types.js";
import { sameDoc } from "./same-doc.js";
import { releaseIdleWorkers } from "../../workers/pool.js";
import {
  ChunkParser,
  outcomeOf,
  packOutcome,
  PARSE_CHUNK,
  poolSize,
  unpackOutcome,
  type ParseOutcome,
} from "./parse-pool.js";

export interface SyncContext {
  index: RecipeIndex;
  folder: DataFolder;
  vocabularyFor(groupSlug: string): Vocabulary;
  vocabularyVersion(groupSlug: string): string;
  firstAdminOf(groupSlug: string): string | null;
  /** See RecipeStoreOptions.isGroupMember; null: cannot tell. */
  isGroupMember(groupSlug: string, userId: string): boolean | null;
  now(): Date;
  readOnly: boolean;
  log: Logger;
  /** A watched file failed to parse: true when a re-read is scheduled (do not call it broken yet). */
  retryLater(loc: Location): boolean;
  /** The file parsed, vanished or was given up on: drop any scheduled re-read. */
  clearRetry(loc: Location): void;
  /** The warm-start cache: consulted by the scan at open, told every parse (null: no cache). */
  cache: IndexCache | null;
  /** Run `writeBackLater(wb)` after `delayMs`, under the store's lock; false when it cannot (closed). */
  deferWriteBack?(wb: WriteBack, delayMs: number): boolean;
}

/**
 * How long a file must have been left alone before its id is written into it. Editors and scripts
 * save in steps (a few lines, a pause, the rest, or `>>` line by line): replacing the file mid-save
 * sends the rest of the save into the replaced file, and the person's edit is lost.
 */
export const WRITE_BACK_QUIET_MS = 1_500;

/**
 * initial: the scan at open (nothing is a hand edit, nothing retried);
 * watch: a burst from the watcher (changes are hand edits; a parse failure is re-read once first);
 * reload: an explicit reload, e.g. after a 409 (hand edits; only an empty file is re-read first);
 * vocabulary: re-read files parsed with an older version of the group's foods and units.
 */
export type SyncMode = "initial" | "watch" | "reload" | "vocabulary";

export interface WriteBack {
  loc: Location;
  /** The file version the identity was resolved against; anything else on disk is left alone. */
  expectedHash: string;
  patch: IdentityPatch;
}

/** The announcement for a file that parsed: it always has an id. */
type Claimed = RecipeChange & { id: string };

interface Run {
  ctx: SyncContext;
  mode: SyncMode;
  goneKeys: Set<string>;
  events: RecipeChange[];
  writeBacks: WriteBack[];
}

/**
 * Bring the index in line with these files; returns the changes to announce. `ahead`: the initial
 * scan's files stat'ed ahead of it (read-files.ts statAhead).
 */
export async function syncFiles(
  ctx: SyncContext,
  files: Location[],
  mode: SyncMode,
  ahead: StatsAhead | null = null,
): Promise<RecipeChange[]> {
  const unique = [...new Map(files.map((f) => [keyOf(f.groupSlug, f.slug), f])).values()];
  const atOpen = mode === "initial" ? await scanAtOpen(ctx, unique, ahead) : null;
  const reads = atOpen?.reads ?? (await mapLimit(unique, READ_PARALLELISM, (loc) => readOne(ctx, loc)));
  if (mode !== "initial") reads.push(...(await newcomersBesideGone(ctx, reads)));
  // Renames pair files that vanished with files that appeared, so the whole burst is read first.
  const gone = reads.filter((r) => r.state === null && r.problem === null);
  const run: Run = {
    ctx,
    mode,
    goneKeys: new Set(gone.map((r) => keyOf(r.loc.groupSlug, r.loc.slug))),
    events: [],
    writeBacks: [],
  };
  // Files the cache vouched for first, then older files first, then by location: on a cold start,
  // of two files with the same id the older keeps it (ARCHITECTURE §3 Identity), however the
  // listing or the burst came.
  const present = reads.filter((r) => r.state !== null || r.problem !== null).sort(claimOrder);
  for (const r of present) await loadOne(run, r, atOpen?.parsed.get(r));
  for (const r of gone) forget(run, r.loc);
  if (!ctx.readOnly) {
    for (const wb of run.writeBacks) {
      const wait = mode === "watch" ? quietFor(ctx, wb) : 0;
      if (wait > 0 && ctx.deferWriteBack?.(wb, wait)) continue;
      await writeBackLater(ctx, wb);
    }
  }
  return run.events;
}

/**
 * Same bytes as the index holds: the store's own write coming back through the watcher, a touch, or a
 * checkout of the same content. Nothing to announce; the fresh mtime is kept for the next comparison.
 */
function keepSameBytes(ctx: SyncContext, cur: RecipeEntry, r: Read, file: FileFingerprint): void {
  if (cur.file.mtimeMs !== file.mtimeMs) ctx.index.put({ ...cur, file });
  ctx.cache?.touch(r.loc, file, r.readAt);
  ctx.clearRetry(r.loc);
}

/** A burst larger than this goes to the lone work whole: it is read there once, not twice. */
const UNCHANGED_CHECK_MAX = 256;

/**
 * The files of a watcher burst that need the store's lone work: those whose bytes are what the index
 * holds are settled here, as loadOne would, and left out. Under a load of API writes nearly every burst
 * is the store's own writes coming back; as lone work each waited for every save in flight and held up
 * every save asked for after it, for the turns of the event loop its reads took (decision 0299). The
 * reads are synchronous (a few small files), and each comparison with the index and its bookkeeping run
 * in one synchronous step, so no save can come in between. A file that differs, is gone, is new or
 * does not read goes on as before; so does a burst too large to read twice.
 */
export function needingLoneWork(ctx: SyncContext, files: Location[]): Location[] {
  if (files.length > UNCHANGED_CHECK_MAX) return files;
  const rest: Location[] = [];
  for (const loc of files) {
    const r = readAtOpen(ctx, loc);
    const cur = r.state && !r.problem ? ctx.index.get(loc.groupSlug, loc.slug) : null;
    if (r.state && cur && cur.file.hash === r.state.hash) keepSameBytes(ctx, cur, r, fingerprintOf(r.state));
    else rest.push(loc);
  }
  return rest;
}

function claimOrder(a: Read, b: Read): number {
  const ca = a.cached ? 0 : 1;
  const cb = b.cached ? 0 : 1;
  if (ca !== cb) return ca - cb;
  const ma = a.state?.mtimeMs ?? 0;
  const mb = b.state?.mtimeMs ?? 0;
  if (ma !== mb) return ma - mb;
  return compareLocation(a.loc, b.loc);
}

/**
 * When a file is gone, any file the index does not know yet in the same folder is read in the same
 * burst: it may be that file renamed. Events do not arrive in order (an earlier event's read can
 * already see the rename, a new name may be reported after the old one's removal), so pairing by listing is
 * what makes a hand rename one `renamed` rather than `deleted` and, later, `renamed`.
 */
async function newcomersBesideGone(ctx: SyncContext, reads: Read[]): Promise<Read[]> {
  const inBurst = new Set(reads.map((r) => keyOf(r.loc.groupSlug, r.loc.slug)));
  const groups = new Set(
    reads.filter((r) => r.state === null && r.problem === null).map((r) => r.loc.groupSlug),
  );
  const extra: Location[] = [];
  for (const groupSlug of groups) {
    const listed = await listRecipeFiles(ctx.folder, groupSlug).catch(() => []);
    for (const loc of listed) {
      if (inBurst.has(keyOf(loc.groupSlug, loc.slug))) continue;
      if (ctx.index.get(loc.groupSlug, loc.slug) || ctx.index.getBroken(loc.groupSlug, loc.slug)) continue;
      extra.push(loc);
    }
  }
  return mapLimit(extra, READ_PARALLELISM, (loc) => readOne(ctx, loc));
}

/** A file with neither `name` nor `# Heading` is named after its file; in memory only, nothing to fix. */
export function nameFromSlug(slug: string): string {
  return slug.replace(/-+/g, " ").replace(/^./, (c) => c.toUpperCase());
}

function parse(ctx: SyncContext, groupSlug: string, text: string, slug: string): ParseOutcome {
  // An empty file is what an editor leaves between truncating and writing: treated like a parse
  // failure, it is re-read before being reported, and an empty recipe never replaces a real one.
  if (text.trim() === "") return { error: { message: "file is empty", line: null } };
  return named(parseText(ctx, groupSlug, text), slug);
}

function parseText(ctx: SyncContext, groupSlug: string, text: string): ParseOutcome {
  // parseRecipeFile, with a fast path for the front matter Larder writes (store/fast-read.ts).
  return outcomeOf(() => compactDoc(readRecipeFile(text, ctx.vocabularyFor(groupSlug))));
}

function named(outcome: ParseOutcome, slug: string): ParseOutcome {
  if ("error" in outcome || outcome.doc.name !== "") return outcome;
  return { doc: { ...outcome.doc, name: nameFromSlug(slug) } };
}

/** Files read between two looks at the workers' answers. */
const READ_STEP = 100;

/**
 * The scan at open reads and parses the folder a chunk at a time and keeps each file's outcome, not its
 * text: the texts of one chunk are dropped once it is parsed, so the scan holds a chunk of texts on top
 * of the docs rather than every file's text until the last is parsed (decision 0130). Reading is
 * synchronous (nothing is served yet, and thousands of small files from the page cache are read
 * several times faster without a thread-pool round trip per call); while a worker thread parses one
 * chunk, the main thread reads the next. The identity rules run afterwards over every file, in the
 * same order as before, so which duplicate keeps its id does not depend on the chunks.
 */
async function scanAtOpen(
  ctx: SyncContext,
  locs: Location[],
  ahead: StatsAhead | null,
): Promise<{ reads: Read[]; parsed: Map<Read, ParseOutcome> }> {
  const reads: Read[] = [];
  const toRead: Location[] = [];
  const emptyCache = ctx.cache?.stats().entries === 0;
  for (const loc of locs) {
    const hit = cachedAtOpen(ctx, loc, emptyCache, ahead);
    if (hit) reads.push(hit);
    else toRead.push(loc);
  }
  const parsed = new Map<Read, ParseOutcome>();
  const parser = new ChunkParser(
    poolSize(toRead.length),
    (g) => ctx.vocabularyFor(g),
    // Packed as a worker packs it: the same docs whichever thread parsed them, and no doc copied
    // whole (compactDoc) only to be packed next.
    (g, text) => unpackOutcome(packOutcome(outcomeOf(() => readRecipeFile(text, ctx.vocabularyFor(g))))),
  );
  let chunk: Read[] = [];
  const flush = async () => {
    // An empty file stays for loadOne, which reports it like a parse failure.
    const toParse = chunk.filter((r) => !r.problem && r.state?.text && r.state.text.trim() !== "");
    await parser.add(
      toParse.map((r) => [r.loc.groupSlug, r.state!.text!]),
      (outcomes) => {
        for (let i = 0; i < toParse.length; i++) {
          const r = toParse[i];
          const o = named(outcomes[i], r.loc.slug);
          // Kept as a warm start keeps its docs, the parts as a cache row's bytes (decision 0177).
          parsed.set(r, "doc" in o ? { doc: packedDoc(o.doc) } : o);
          r.state!.text = null;
        }
      },
    );
    chunk = [];
  };
  for (let i = 0; i < toRead.length; i++) {
    const r = readAtOpen(ctx, toRead[i]);
    reads.push(r);
    if (sameBytesAsCached(ctx, r)) continue;
    chunk.push(r);
    if (chunk.length === PARSE_CHUNK) await flush();
    // Often enough that a worker done with its chunk gets the next one without waiting long.
    if (i % READ_STEP === READ_STEP - 1) await parser.turn();
  }
  await flush();
  await parser.finish();
  // The threads would keep the parser's heap for a minute, through the search index and cache write.
  if (poolSize(toRead.length) > 0) await releaseIdleWorkers();
  return { reads, parsed };
}

/**
 * A file read at open whose bytes are the ones the cache parsed (its mtime changed, not its content: a
 * restored backup, a checkout, a copy without times) takes the cached parse instead of a new one. The
 * sha256 of the bytes decides, as it does for "changed" everywhere (decision 0199).
 */
function sameBytesAsCached(ctx: SyncContext, r: Read): boolean {
  const state = r.state;
  if (!ctx.cache || !state || r.problem || r.cached) return false;
  let hit: CachedParse | null;
  try {
    const file = fingerprintOf(state);
    hit = ctx.cache.lookupSameBytes(r.loc, file, r.readAt, ctx.vocabularyVersion(r.loc.groupSlug));
  } catch {
    // The group has no vocabulary yet: the file is parsed, which reports why.
    return false;
  }
  if (!hit) return false;
  r.cached = hit;
  state.text = null;
  return true;
}

async function loadOne(run: Run, r: Read, preParsed?: ParseOutcome): Promise<void> {
  const { ctx, mode } = run;
  const { index } = ctx;
  const { groupSlug, slug } = r.loc;
  if (r.problem) return markBroken(run, r.loc, r.problem.file, r.problem.info);
  const state = r.state as FileFingerprint & { text: string | null };
  // The cache's own fingerprint when the parse came from it: one object for both (decision 0186).
  const file: FileFingerprint = r.cached?.file ?? {
    size: state.size,
    mtimeMs: state.mtimeMs,
    hash: state.hash,
  };
  const cur = index.get(groupSlug, slug);
  const stale =
    mode === "vocabulary" && cur !== null && cur.vocabularyVersion !== ctx.vocabularyVersion(groupSlug);
  // An explicit reload re-parses a broken file even if unchanged: what failed may have been the
  // group's vocabulary (a group folder seen before its group.json was loaded).
  const retryBroken = mode !== "watch";
  if (cur && cur.file.hash === state.hash && !stale && !(cur.broken && retryBroken))
    return keepSameBytes(ctx, cur, r, file);
  const known = index.getBroken(groupSlug, slug);
  if (!cur && known && known.file.hash === state.hash && !retryBroken) return;

  const parsed = r.cached
    ? { doc: r.cached.doc }
    : (preParsed ?? parse(ctx, groupSlug, state.text ?? "", slug));
  if ("error" in parsed) {
    // An empty file met by a reload (a write refused with 409 because the file just changed) or by the
    // re-read after a change of foods or units is most often an editor's save between truncating and
    // writing: re-read once, as the watcher does, before calling it broken.
    const midSave = (mode === "reload" || mode === "vocabulary") && (state.text ?? "").trim() === "";
    if ((mode === "watch" || midSave) && ctx.retryLater(r.loc)) return;
    ctx.clearRetry(r.loc);
    return markBroken(run, r.loc, file, parsed.error);
  }
  ctx.clearRetry(r.loc);
  if (!r.cached)
    ctx.cache?.remember(r.loc, {
      file,
      readAt: r.readAt,
      vocabularyVersion: ctx.vocabularyVersion(groupSlug),
      doc: parsed.doc,
    });
  const handEdit = mode !== "initial" && !(cur && cur.file.hash === state.hash);
  const seenAt = handEdit ? ctx.now().toISOString() : (cur?.seenAt ?? null);
  const fileId = usableId(parsed.doc.id) ? parsed.doc.id : null;
  const patch: IdentityPatch = {};
  let change: Claimed;
  if (cur && (fileId === cur.id || fileId === null)) {
    // An id line deleted or mangled by hand is restored: ratings, comments and plans stay attached.
    if (fileId === null) patch.id = cur.id;
    change = { type: "updated", groupSlug, slug, id: cur.id };
  } else {
    if (cur) {
      // The id was changed by hand to another one: the old identity ends here.
      index.delete(groupSlug, slug);
      run.events.push({ type: "deleted", groupSlug, slug, id: cur.id });
    }
    change = await claim(run, r.loc, fileId, patch);
  }
  // Like the id, an owner line deleted by hand comes back from the index before falling to the admin.
  // An owner who is not a user of this group (another group's, or not an id at all) would hand the
  // recipe to another household: it is reported and treated as missing, but the line is left as the
  // person wrote it (only a missing owner is written in).
  const written = ownerOf(run, r.loc, parsed.doc.owner);
  const owner = written ?? validOwner(ctx, groupSlug, cur?.doc.owner ?? null) ?? ctx.firstAdminOf(groupSlug);
  if (parsed.doc.owner === null && owner !== null) patch.owner = owner;
  const id = change.id;
  const entry: RecipeEntry = {
    groupSlug,
    slug,
    // A spread would parse a cached doc's lazy parts (lazy-doc.ts).
    doc: withIdentity(parsed.doc, id, owner),
    id,
    file,
    seenAt,
    vocabularyVersion: ctx.vocabularyVersion(groupSlug),
  };
  index.put(entry);
  if (patch.id !== undefined || patch.owner !== undefined)
    run.writeBacks.push({ loc: r.loc, expectedHash: state.hash, patch });
  // Re-read with a newer vocabulary but reading the same: nothing for subscribers to redo.
  if (
    cur &&
    !cur.broken &&
    change.type === "updated" &&
    cur.file.hash === state.hash &&
    sameDoc(cur.doc, entry.doc)
  )
    return;
  run.events.push(change);
}

/** The file's owner if it may own a recipe of this group, else null (reported). */
function ownerOf(run: Run, loc: Location, owner: string | null): string | null {
  const { ctx } = run;
  if (owner === null || validOwner(ctx, loc.groupSlug, owner) !== null) {
    ctx.index.clearNotes(loc, "foreign-owner");
    return owner;
  }
  const message = `owner ${JSON.stringify(owner.length > 60 ? `${owner.slice(0, 60)}…` : owner)} is not a user of group ${loc.groupSlug}; the recipe is treated as having no owner until the line is fixed`;
  ctx.index.note({ groupSlug: loc.groupSlug, slug: loc.slug, kind: "foreign-owner", message });
  ctx.log.warn(`recipe file groups/${loc.groupSlug}/recipes/${loc.slug}.md: ${message}`);
  return null;
}

function validOwner(ctx: SyncContext, groupSlug: string, owner: string | null): string | null {
  if (owner === null || !isUuid(owner)) return null;
  return ctx.isGroupMember(groupSlug, owner) === false ? null : owner;
}

/** Decide the id of a file the index does not hold under that id yet. */
async function claim(run: Run, loc: Location, fileId: string | null, patch: IdentityPatch): Promise<Claimed> {
  const { index } = run.ctx;
  const { groupSlug, slug } = loc;
  const derive = (): Claimed => {
    const id = recipeIdFor(groupSlug, slug, (x) => index.idTaken(x));
    patch.id = id;
    return { type: "created", groupSlug, slug, id };
  };
  if (fileId === null) return derive();
  const holder = index.getById(fileId);
  if (!holder) {
    // Deleted earlier (outside the debounce window) and back under another name: still a rename.
    const was = index.exhume(fileId);
    if (was && was.groupSlug === groupSlug && was.slug !== slug)
      return { type: "renamed", groupSlug, slug, id: fileId, oldSlug: was.slug };
    return { type: "created", groupSlug, slug, id: fileId };
  }
  if (run.goneKeys.has(keyOf(holder.groupSlug, holder.slug)) || !(await stillThere(run.ctx, holder))) {
    // A hand rename: the file that had this id is gone, so the id (and all that hangs on it) moves.
    index.delete(holder.groupSlug, holder.slug);
    if (holder.groupSlug === groupSlug)
      return { type: "renamed", groupSlug, slug, id: fileId, oldSlug: holder.slug };
    run.events.push({ type: "deleted", groupSlug: holder.groupSlug, slug: holder.slug, id: fileId });
    return { type: "created", groupSlug, slug, id: fileId };
  }
  // A duplicate (a person copied a file to start a variant). An identity never moves: the file that
  // holds it keeps it with everything attached (ratings, timeline, shares, media URLs), and the
  // newcomer gets the id derived from its own name. syncFiles' order makes "holds" mean "was known
  // first", then "is older".
  const claimed = derive();
  const message = `duplicate id ${fileId} (already the id of groups/${holder.groupSlug}/recipes/${holder.slug}.md); this file was given its own id ${claimed.id}`;
  index.note({ groupSlug, slug, kind: "duplicate-id", message });
  run.ctx.log.warn(`recipe file groups/${groupSlug}/recipes/${slug}.md: ${message}`);
  return claimed;
}

async function stillThere(ctx: SyncContext, loc: Location): Promise<boolean> {
  try {
    return (await lstat(ctx.folder.recipeFile(loc.groupSlug, loc.slug))).isFile();
  } catch {
    return false;
  }
}

function markBroken(run: Run, loc: Location, file: FileFingerprint, info: BrokenInfo): void {
  const { index, log } = run.ctx;
  const cur = index.get(loc.groupSlug, loc.slug);
  const where = `groups/${loc.groupSlug}/recipes/${loc.slug}.md${info.line !== null ? `:${info.line}` : ""}`;
  if (cur) {
    if (cur.broken && cur.file.hash === file.hash) return;
    // The last good doc keeps serving reads; writes are refused until the file is fixed by hand.
    index.put({ ...cur, file, broken: info });
    run.events.push({ type: "broken", groupSlug: loc.groupSlug, slug: loc.slug, id: cur.id });
  } else {
    if (index.getBroken(loc.groupSlug, loc.slug)?.file.hash === file.hash) return;
    index.putBroken({ groupSlug: loc.groupSlug, slug: loc.slug, file, broken: info });
    run.events.push({ type: "broken", groupSlug: loc.groupSlug, slug: loc.slug, id: null });
  }
  log.warn(`recipe file ${where} cannot be read and will not be written until fixed: ${info.message}`);
}

function forget(run: Run, loc: Location): void {
  const { index } = run.ctx;
  index.clearNotes(loc);
  run.ctx.clearRetry(loc);
  run.ctx.cache?.forget(loc);
  if (index.deleteBroken(loc.groupSlug, loc.slug))
    run.events.push({ type: "deleted", groupSlug: loc.groupSlug, slug: loc.slug, id: null });
  const prev = index.delete(loc.groupSlug, loc.slug);
  if (!prev) return;
  // Deleted by hand: remember the id, so the file coming back under another name is a rename.
  index.bury(prev.id, loc);
  run.events.push({ type: "deleted", groupSlug: loc.groupSlug, slug: loc.slug, id: prev.id });
}

/** Time left until the file of `wb` has been left alone for WRITE_BACK_QUIET_MS. */
function quietFor(ctx: SyncContext, wb: WriteBack): number {
  const cur = ctx.index.get(wb.loc.groupSlug, wb.loc.slug);
  if (!cur) return 0;
  return Math.max(0, Math.ceil(cur.file.mtimeMs + WRITE_BACK_QUIET_MS - ctx.now().getTime()));
}

/**
 * A write-back, now or deferred. The index is already right; a failed write-back (read-only mount,
 * permissions) is retried the next time the file is read, and must not swallow a burst's announcements.
 */
export async function writeBackLater(ctx: SyncContext, wb: WriteBack): Promise<void> {
  await writeBack(ctx, wb).catch((e: unknown) => {
    // Its folder replaced by a symlink since: the recipe is as good as gone, nothing to tell.
    if (e instanceof ReplacedFolderError) return;
    ctx.log.warn(`could not write identity into groups/${wb.loc.groupSlug}/recipes/${wb.loc.slug}.md:`, e);
  });
}

/**
 * Write an assigned id/owner into the file, editing only those front-matter lines when that provably
 * yields the same recipe, else writing the canonical form. Skipped when the file is no longer the
 * version the identity was resolved against: the watcher brings that version and the rules run again.
 */
async function writeBack(ctx: SyncContext, wb: WriteBack): Promise<void> {
  const { index, folder } = ctx;
  const cur = index.get(wb.loc.groupSlug, wb.loc.slug);
  if (!cur || cur.broken || cur.file.hash !== wb.expectedHash) return;
  const path = folder.recipeFile(wb.loc.groupSlug, wb.loc.slug);
  const disk = await readFileState(path).catch(() => null);
  if (!disk || disk.hash !== wb.expectedHash) return;
  // The owner the index resolved may differ from the file's (a foreign owner is treated as missing
  // but left as written): only a patched owner goes into the file.
  const fileOwner =
    wb.patch.owner === undefined ? (tryParse(ctx, wb.loc, disk.text)?.owner ?? cur.doc.owner) : cur.doc.owner;
  const target = { ...cur.doc, owner: fileOwner };
  const patched = patchFrontMatter(disk.text, wb.patch);
  let text: string;
  let doc = patched === null ? null : tryParse(ctx, wb.loc, patched);
  if (patched !== null && doc !== null && sameDoc(doc, target)) {
    text = patched;
  } else {
    text = serializeRecipeFile(target, ctx.vocabularyFor(wb.loc.groupSlug), disk.text);
    doc = tryParse(ctx, wb.loc, text);
    if (!doc || doc.id !== target.id) {
      ctx.log.warn(
        `could not write the id of groups/${wb.loc.groupSlug}/recipes/${wb.loc.slug}.md: the canonical form does not read back`,
      );
      return;
    }
  }
  // Only over the version the identity was resolved against: a save landing meanwhile wins, and the
  // watcher brings it through the rules again.
  const writtenAt = Date.now();
  const file = await replaceIfUnchanged(path, text, folder.tmpDir, fingerprintOf(disk));
  if (file === "changed") return;
  index.put({ ...cur, doc: { ...doc, id: cur.id, owner: cur.doc.owner }, file });
  ctx.cache?.remember(wb.loc, {
    file,
    readAt: writtenAt,
    vocabularyVersion: ctx.vocabularyVersion(wb.loc.groupSlug),
    doc,
  });
  const what = [wb.patch.id !== undefined ? "id" : null, wb.patch.owner !== undefined ? "owner" : null]
    .filter(Boolean)
    .join(" and ");
  ctx.log.info(`wrote ${what} into groups/${wb.loc.groupSlug}/recipes/${wb.loc.slug}.md`);
}

function tryParse(ctx: SyncContext, loc: Location, text: string): RecipeDoc | null {
  const r = parse(ctx, loc.groupSlug, text, loc.slug);
  return "doc" in r ? r.doc : null;
}
