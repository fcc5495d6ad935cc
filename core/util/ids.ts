import { hash, randomUUID } from "node:crypto";

/** A new random version-4 UUID. */
export function newId(): string {
  return randomUUID();
}

/** The variant digit in place of a hex digit: its low two bits after the bits 10 (8, 9, a or b), by char code. */
const VARIANT: string[] = [];
for (const [n, digit] of [..."0123456789abcdef"].entries()) VARIANT[digit.charCodeAt(0)] = "89ab"[n & 3];

/**
 * A stable id derived from its parts, shaped as a version-4 UUID so that clients validating `uuid4`
 * accept it. Two machines deriving from the same parts get the same id (git-synced folders).
 */
export function derivedId(...parts: string[]): string {
  // The one-shot hash, as hex: a recipe's wire form derives an id per ingredient and step, per
  // request, and a Buffer per id (then its hex) took three times as long.
  const hex = hash("sha256", parts.join("\u0000"), "hex");
  // The version nibble is 4; the variant's two top bits are 10 (8, 9, a or b).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${VARIANT[hex.charCodeAt(16)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(s: unknown): s is string {
  return typeof s === "string" && UUID_RE.test(s);
}

/**
 * The lower-case, hyphenated form of a UUID written as Python's `UUID()` reads one (Mealie parses
 * ids so): any case, hyphens anywhere or none, braces or a `urn:uuid:` prefix. Swift clients send
 * ids upper-case. Null when the text is no UUID.
 */
export function canonicalUuid(s: string): string | null {
  const hex = s
    .trim()
    .replace(/^urn:uuid:/i, "")
    .replace(/^\{(.*)\}$/, "$1")
    .replace(/-/g, "")
    .toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID4_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** A version-4 UUID, as Mealie's `UUID4` fields take: the nil UUID and other versions are not. */
export function isUuid4(s: unknown): s is string {
  return typeof s === "string" && UUID4_RE.test(s);
}
