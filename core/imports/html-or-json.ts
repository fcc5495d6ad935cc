/** What Mealie's "create from HTML or JSON" takes: one text that is either a page or schema.org JSON. */
import type { ImportInput } from "../plugins/kinds.js";
import { BadRecipeDataError } from "./errors.js";

/** `data` starting with `{` or `[` is schema.org JSON (Mealie wraps it as ld+json); anything else is HTML. */
export function htmlOrJsonInput(data: string, url?: string | null): ImportInput {
  const t = data.trim();
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return { type: "json", json: JSON.parse(t), url: url ?? undefined };
    } catch {
      throw new BadRecipeDataError("The JSON could not be read");
    }
  }
  return { type: "html", html: data, url: url ?? undefined };
}
