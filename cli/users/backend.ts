/** Pick how user commands reach the folder: the live server's API, or core under our own lock. */
import { configFor, liveServer, requireDataFolder, withLarder, withLock } from "../context.js";
import { LocalUsers } from "./local.js";
import { ServerUsers } from "./server.js";
import type { UserBackend } from "./types.js";

export async function withUsers<T>(dataDir: string, fn: (users: UserBackend) => Promise<T>): Promise<T> {
  requireDataFolder(dataDir);
  const server = await liveServer(dataDir);
  if (server) return fn(new ServerUsers(server, dataDir));
  return withLock(dataDir, () => withLarder(configFor(dataDir), (larder) => fn(new LocalUsers(larder))));
}
