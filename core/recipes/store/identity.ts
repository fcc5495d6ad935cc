/**
 * Identity rules of ARCHITECTURE §3: derived ids for id-less or duplicate files, the sort order that
 * decides which duplicate keeps its id, and the minimal front-matter edit that writes them back.
 */
import { derivedId, isUuid } from "../../util/ids.js";

export interface Location {
  groupSlug: string;
  slug: string;
}

/** Map key of a recipe; slugs and group folder names never contain "/". */
export function keyOf(groupSlug: string, slug: string): string {
  return `${groupSlug}/${slug}`;
}

/**
 * Order that decides which file keeps a duplicated id: group folder, then file name, by code unit.
 * Locale-free on purpose: two machines syncing with git must pick the same file.
 */
export function compareLocation(a: Location, b: Location): number {
  if (a.groupSlug !== b.groupSlug) return a.groupSlug < b.groupSlug ? -1 : 1;
  if (a.slug === b.slug) return 0;
  return a.slug < b.slug ? -1 : 1;
}

/**
 * The id a file gets when it has none (or loses a duplicate): a hash of group folder and slug, so
 * every machine derives the same one. The group *folder* is used, not group.json's id, because it is
 * fixed at creation and known without reading anything else. Only if that id is itself taken (someone
 * copied it by hand) is a counter added, still deterministically.
 */
export function recipeIdFor(groupSlug: string, slug: string, taken: (id: string) => boolean): string {
  let id = derivedId(groupSlug, "recipe", slug);
  for (let n = 2; taken(id); n++) id = derivedId(groupSlug, "recipe", slug, String(n));
  return id;
}

/** A front-matter id is usable only if it is a UUID: clients validate `uuid4` and would choke otherwise. */
export function usableId(id: string | null): id is string {
  return id !== null && isUuid(id);
}

export interface IdentityPatch {
  id?: string;
  owner?: string;
}

/**
 * Set `id` and/or `owner` in a file's front matter by editing only those lines, so a hand-formatted
 * file keeps its layout and a git diff shows one or two lines. Returns null when the front matter has
 * a shape this line editor does not handle (the caller then writes the canonical form). The caller
 * re-parses the result to verify it; this function only has to be right for ordinary files.
 */
export function patchFrontMatter(text: string, patch: IdentityPatch): string | null {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const lines = body.split(eol);
  const sets: Array<[keyof IdentityPatch, string]> = [];
  if (patch.id !== undefined) sets.push(["id", patch.id]);
  if (patch.owner !== undefined) sets.push(["owner", patch.owner]);

  if (lines[0]?.trimEnd() !== "---") {
    const block = ["---", ...sets.map(([k, v]) => `${k}: ${yamlScalar(v)}`), "---"];
    return bom + block.join(eol) + eol + body;
  }
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) return null;
  const fm = lines.slice(1, end);

  for (const [key, value] of sets) {
    const line = `${key}: ${yamlScalar(value)}`;
    const at = fm.findIndex((l) => topLevelKey(l) === key);
    if (at >= 0) {
      // A value spread over several lines (block scalar, nested map) is not a plain id: leave it to
      // the canonical writer rather than guess where it ends.
      if (continues(fm[at + 1])) return null;
      fm[at] = line;
      continue;
    }
    // Keep the documented key order (id, name, owner, ...) so a later canonical write moves nothing.
    let insertAt = 0;
    if (key === "owner") {
      const name = fm.findIndex((l) => topLevelKey(l) === "name");
      const id = fm.findIndex((l) => topLevelKey(l) === "id");
      if (name >= 0 && !continues(fm[name + 1])) insertAt = name + 1;
      else if (id >= 0) insertAt = id + 1;
    }
    fm.splice(insertAt, 0, line);
  }
  return bom + [lines[0], ...fm, ...lines.slice(end)].join(eol);
}

function topLevelKey(line: string): string | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(line);
  return m ? m[1] : null;
}

/** True when `next` belongs to the value of the line before it (indented, or a block sequence item). */
function continues(next: string | undefined): boolean {
  if (next === undefined || next.trim() === "") return false;
  return /^[\s-]/.test(next);
}

/** UUIDs are safe plain scalars; anything else is written as a JSON string, which YAML also reads. */
function yamlScalar(value: string): string {
  return isUuid(value) ? value : JSON.stringify(value);
}
