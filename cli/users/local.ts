/** Who the CLI acts as when core answers its calls in this process (no server holds the folder). */
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";
import { superUserIdOf } from "../../core/policy/users.js";
import { CliError, EXIT } from "../output.js";

/**
 * Who a local command acts as: the super user (the longest-standing admin), the same account a live
 * server lets the lock token act as, so core's rules (never demote yourself…) apply the same way.
 */
export function localActor(larder: Larder): Actor {
  const id = superUserIdOf(larder.users.all());
  const user = id ? larder.users.byId(id) : null;
  if (!user)
    throw new CliError(
      "The data folder has no administrator (create one with: larder user add --admin)",
      EXIT.failure,
    );
  return { kind: "user", user, integrationId: "larder-cli" };
}
