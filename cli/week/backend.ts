/** Pick how `plan` and `list` reach the folder: the live server's API, or core under our own lock. */
import { configFor, liveServer, requireDataFolder, withLarder, withLock } from "../context.js";
import { LocalWeek } from "./local.js";
import { ServerWeek } from "./server.js";
import type { WeekBackend } from "./types.js";

export async function withWeek<T>(dataDir: string, fn: (week: WeekBackend) => Promise<T>): Promise<T> {
  requireDataFolder(dataDir);
  const server = await liveServer(dataDir);
  if (server) return fn(new ServerWeek(server, dataDir));
  return withLock(dataDir, () => withLarder(configFor(dataDir), (larder) => fn(new LocalWeek(larder))));
}
