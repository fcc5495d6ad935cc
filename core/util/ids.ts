import { hash, randomUUID } from "node:crypto";

/** A new random version-4 UUID. */
export function newId(): string {
  return randomUUID();
}

/**
 * A stable id derived from its parts, shaped as a version-4 UUID so that clients validating `uuid4`
 * accept it. Two machines deriving from the same parts get the same id (git-synced folders).
 */
export function derivedId(...parts: string[]): string {
  // The one-shot hash: a recipe's wire form derives an id per ingredient and step, per request.
  const h = hash("sha256", parts.join("\u0000"), "buffer");
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(s: unknown): s is string {
  return typeof s === "string" && UUID_RE.test(s);
}
