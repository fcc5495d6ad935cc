/** The recipe store: in-memory index of a data folder's recipe files, kept current by a watcher. */
export { RecipeStore, entryUpdatedAt, type ChangeListener, type LockedSave } from "./recipe-store.js";
export { nameKey } from "./recipe-index.js";
export { RecipeWatcher, type WatchedFile } from "./watcher.js";
export type {
  BrokenFile,
  BrokenInfo,
  FileFingerprint,
  RecipeChange,
  RecipeChangeType,
  RecipeEntry,
  RecipeStoreOptions,
  RecipeStoreStats,
  SaveOptions,
} from "./types.js";
