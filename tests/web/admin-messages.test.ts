import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_REFUSALS } from "../../core/policy/demo.js";
import { SPEC_MESSAGES } from "../../core/users/users-service.js";
import { CORE_MESSAGE_KEYS, validationKey } from "../../web/app/lib/admin-messages.js";

type Catalogue = { [k: string]: string | Catalogue };
const catalogue = (ns: string): Catalogue =>
  JSON.parse(
    readFileSync(new URL(`../../web/app/locales/en-US/${ns}.json`, import.meta.url), "utf8"),
  ) as Catalogue;
const lookup = (key: string): string | undefined => {
  const [ns, path] = key.split(":");
  let node: string | Catalogue | undefined = catalogue(ns);
  for (const part of path.split(".")) node = typeof node === "object" ? node[part] : undefined;
  return typeof node === "string" ? node : undefined;
};

describe("core's messages in the admin screens", () => {
  it("has a catalogue key for every demo refusal, whose English is core's sentence", () => {
    for (const sentence of Object.values(DEMO_REFUSALS)) {
      const key = CORE_MESSAGE_KEYS[sentence];
      expect(key, sentence).toBeDefined();
      expect(lookup(key)).toBe(sentence);
    }
  });

  it("points every known message at a key that exists", () => {
    for (const [sentence, key] of Object.entries(CORE_MESSAGE_KEYS))
      expect(lookup(key), sentence).toBeTruthy();
  });

  it("reads spec §5's messages back as the common catalogue's keys", () => {
    expect(validationKey(SPEC_MESSAGES.required)).toEqual({ key: "validation.required" });
    expect(validationKey(SPEC_MESSAGES.minLength(8))).toEqual({
      key: "validation.minLength",
      values: { n: 8 },
    });
    expect(validationKey(SPEC_MESSAGES.maxLength(200))).toEqual({
      key: "validation.maxLength",
      values: { n: 200 },
    });
    expect(validationKey(SPEC_MESSAGES.usernameTaken)).toEqual({ key: "validation.usernameTaken" });
    expect(validationKey("Something else entirely")).toBeNull();
  });
});
