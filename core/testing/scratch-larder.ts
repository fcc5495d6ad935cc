/**
 * A Larder over a fresh data folder in the system's temp directory, for tests: opened as `larder
 * serve` would (seeded with its first admin), silent, with cheap password hashing. `close` closes it
 * and removes the folder.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import type { UserRecord } from "../schemas/records.js";

export interface ScratchLarder {
  larder: Larder;
  /** The temp folder; the data folder is `<base>/data`. */
  base: string;
  /** The first admin, as the actor most tests act as. */
  admin: Actor & { kind: "user" };
  close(): Promise<void>;
}

export async function openScratchLarder(
  name: string,
  config: Omit<NonNullable<Parameters<typeof loadConfig>[1]>, "dataDir"> = {},
  opts: { plugins?: readonly unknown[] } = {},
): Promise<ScratchLarder> {
  const base = await mkdtemp(join(tmpdir(), `larder-${name}-`));
  const larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { bcryptRounds: 4, ...config, dataDir: join(base, "data") }),
    { log: consoleLogger("silent"), plugins: opts.plugins },
  );
  const scratch: ScratchLarder = {
    larder,
    base,
    admin: { kind: "user", user: larder.users.all()[0] },
    // The Larder open now: a test may close the first and open the folder again (file-owners.test.ts).
    close: async () => {
      await scratch.larder.close();
      await rm(base, { recursive: true, force: true });
    },
  };
  return scratch;
}

/** A plain member of `group` (no admin or management rights but organizing), in its first household. */
export function addMember(larder: Larder, group: GroupData, username: string): Promise<UserRecord> {
  const household = [...group.households.values()][0];
  return larder.users.create(
    {
      username,
      fullName: username,
      email: `${username}@example.com`,
      admin: false,
      advanced: false,
      canInvite: false,
      canManage: false,
      canManageHousehold: false,
      canOrganize: true,
    },
    { groupId: group.doc.data.id, householdId: household.doc.data.id },
  );
}
