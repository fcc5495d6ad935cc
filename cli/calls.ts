/**
 * How a CLI write reaches the folder (issue 12): a command is written once, over a small table of calls
 * in Mealie's wire shapes. The table is answered by core in this process, under the folder's lock, or —
 * when a server holds the folder — by that server's API (ARCHITECTURE §2: one writer). The two answers
 * are thin; whatever the command decides (matching, defaults, messages, exit codes) lives in one place.
 */
import type { Larder } from "../core/larder.js";
import {
  configFor,
  liveServer,
  requireDataFolder,
  withLarder,
  withLock,
  type LiveServer,
} from "./context.js";

export type CallsMode = "local" | "server";

/** The two ways to answer one table of calls. */
export interface CallsSource<C> {
  /** Core in this process (the folder's lock is held while the command runs). */
  local(larder: Larder): C;
  /** The running server's API, with the token it wrote into `.larder/lock`. */
  server(lock: LiveServer, dataDir: string): C;
  /**
   * "when-needed" for calls about people and places: core opens without reading the recipes, and a
   * call that needs them awaits `larder.openRecipes()` first (decision 0202). Default "now".
   */
  recipes?: "now" | "when-needed";
}

/** Run `fn` over the table, answered by the server holding `dataDir`, else by core under the lock. */
export async function withCalls<C, T>(
  dataDir: string,
  source: CallsSource<C>,
  fn: (calls: C, mode: CallsMode) => Promise<T>,
): Promise<T> {
  requireDataFolder(dataDir);
  const server = await liveServer(dataDir);
  if (server) return fn(source.server(server, dataDir), "server");
  return withLock(dataDir, () =>
    withLarder(configFor(dataDir), (larder) => fn(source.local(larder), "local"), {
      recipes: source.recipes,
    }),
  );
}
