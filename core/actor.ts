/** Who is asking: every core operation takes an actor (ARCHITECTURE §1). */
import type { UserRecord } from "./schemas/records.js";

export type Actor =
  | { kind: "user"; user: UserRecord; sessionId?: string; tokenId?: number; integrationId?: string }
  | { kind: "public" };

export const PUBLIC: Actor = { kind: "public" };

export function userOf(actor: Actor): UserRecord | null {
  return actor.kind === "user" ? actor.user : null;
}
