import { hash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalUuid, derivedId, isUuid } from "./ids.js";

/** The derivation byte by byte: sha256 of the parts, its first 16 bytes with the v4 version and variant bits. */
function fromBytes(...parts: string[]): string {
  const h = hash("sha256", parts.join("\u0000"), "buffer");
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

const STEP_3 = "e3b2af09-bc2c-402a-a3c6-2662feb352de";
const OF_A = "ca978112-ca1b-4dca-bac2-31b39a23dc4d";

describe("derivedId", () => {
  it("keeps the ids it has always given (files and clients hold them)", () => {
    expect(derivedId("d79a37c2-5f9c-47e0-ae26-f822f974d988", "step", "3")).toBe(STEP_3);
    expect(derivedId("a")).toBe(OF_A);
  });

  it("is the version-4 shape of the parts' sha256, for any parts", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 4 }), (parts) => {
        const id = derivedId(...parts);
        expect(id).toBe(fromBytes(...parts));
        expect(isUuid(id)).toBe(true);
        expect(id[14]).toBe("4");
        expect("89ab").toContain(id[19]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("canonicalUuid", () => {
  it("reads a UUID as Python's UUID() does: any case, hyphens or none, braces, urn prefix", () => {
    const c = "0b6c35b6-8f0a-4b5e-9f5a-1d2c3b4a5e6f";
    for (const s of [c, c.toUpperCase(), c.replace(/-/g, ""), `{${c}}`, `urn:uuid:${c}`])
      expect(canonicalUuid(s)).toBe(c);
    expect(canonicalUuid("pie-0b6c35b6")).toBeNull();
  });
});
