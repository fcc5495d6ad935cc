/** Shapes shared by the recipe store, its index and its watcher. */
import type { RecipeDoc, Vocabulary } from "../doc.js";
import type { DataFolder } from "../../storage/data-folder.js";
import type { Logger } from "../../log/logger.js";
import type { FileFingerprint } from "./file-state.js";
import type { IndexCacheInfo } from "./index-cache.js";

export type { FileFingerprint } from "./file-state.js";

export interface BrokenInfo {
  message: string;
  /** 1-based line of the problem, when the parser knows it. */
  line: number | null;
}

/**
 * One recipe as the index holds it. Entries are immutable: every change replaces the object, so a
 * caller holding one sees a consistent snapshot. Never mutate `doc`; pass a copy to `save`.
 */
export interface RecipeEntry {
  readonly groupSlug: string;
  readonly slug: string;
  /** The last good parse, with `id` and `owner` filled by the identity rules. */
  readonly doc: RecipeDoc;
  /** Same as `doc.id`, never null. */
  readonly id: string;
  /** The file version this entry was read from or written as. */
  readonly file: FileFingerprint;
  /** ISO time the index saw a hand edit of this file (null: none since the store opened). */
  readonly seenAt: string | null;
  /** Set while the file on disk fails to parse; `doc` is then the last good version. */
  readonly broken?: BrokenInfo;
  /** `vocabularyVersion(groupSlug)` the ingredient lines were read with. */
  readonly vocabularyVersion: string;
}

/** A file the index could not read, with or without a last good version. */
export interface BrokenFile extends BrokenInfo {
  groupSlug: string;
  slug: string;
  /** Id of the last good version, null when the file never parsed. */
  id: string | null;
}

/**
 * Something in a file the store settled by rule but a person should look at (the log, `larder check`,
 * the admin's maintenance summary): a copied file's duplicate id, an owner who is not in the group.
 */
export interface RecipeProblem {
  groupSlug: string;
  slug: string;
  kind: "duplicate-id" | "foreign-owner";
  message: string;
}

export type RecipeChangeType = "created" | "updated" | "deleted" | "renamed" | "broken";

/**
 * What subscribers (search index, caches, the event bus) hear. Treat every event but `deleted` as
 * "upsert what the store now holds for this id"; `id` is null only for a file that never parsed.
 */
export interface RecipeChange {
  type: RecipeChangeType;
  groupSlug: string;
  slug: string;
  id: string | null;
  /** For `renamed`: the slug the same id had before. */
  oldSlug?: string;
}

export interface RecipeStoreOptions {
  folder: DataFolder;
  vocabularyFor(groupSlug: string): Vocabulary;
  /** Changes whenever the group's foods or units change (ingredient reading depends on them). */
  vocabularyVersion(groupSlug: string): string;
  /** User id given to recipes without an `owner`; null when the group has no admin yet. */
  firstAdminOf(groupSlug: string): string | null;
  /**
   * Whether a user id belongs to the group (a hand-written `owner:` must); null when the group has no
   * users to judge by yet. Absent: every UUID is accepted (stores opened without a user list).
   */
  isGroupMember?(groupSlug: string, userId: string): boolean | null;
  now?: () => Date;
  /** Start the file watcher on open (default true; one-shot CLI commands turn it off). */
  watch?: boolean;
  /** Never write (for `larder check`): identity rules apply in memory only. */
  readOnly?: boolean;
  /** Use the warm-start cache in `.larder/cache` (default true; it is never written when read-only). */
  cache?: boolean;
  log?: Logger;
  /** Quiet period that ends a burst of file events (default 75 ms). */
  debounceMs?: number;
  /** Delay before re-reading a file that failed to parse, before calling it broken (default 150 ms). */
  retryMs?: number;
}

export interface SaveOptions {
  /** The client's `updatedAt`: refuse with 409 when a hand edit was seen after it. */
  ifUnchangedSince?: string;
  /**
   * The entry the caller read and derived the new doc from. The write waits for the store's lock,
   * and the watcher may take a hand edit in meanwhile: writing the doc then would silently drop that
   * edit, so it is refused with 409 when the index has seen a hand edit since `basedOn` was read.
   * (A change by another API write is not a reason: API-versus-API stays last-write-wins.)
   */
  basedOn?: RecipeEntry;
}

/** What `larder stats` shows about the index. */
export interface RecipeStoreStats {
  recipes: number;
  groups: Record<string, number>;
  broken: number;
  /** Time the scan at open took (load the cache, list, stat or read, parse, identity), ms. */
  openMs: number;
  cache: IndexCacheInfo | null;
}
