/** Translate a validation problem (lib/validation.ts) with the common catalogue; undefined when none. */
import type { TFunction } from "i18next";
import type { Problem } from "../../lib/validation.js";

export function problemText(t: TFunction, p: Problem | null | undefined): string | undefined {
  return p ? String(t(p.key, { ...(p.values ?? {}) })) : undefined;
}
