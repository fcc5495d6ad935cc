/** Presenting users for route modules (core's directory builds Mealie's UserOut). */
import type { UserRecord } from "../../../core/schemas/records.js";
import type { Larder } from "../../../core/larder.js";

export function userOut(larder: Larder, u: UserRecord, withTokens = true): Record<string, unknown> {
  return larder.directory.userOut(u, withTokens);
}
