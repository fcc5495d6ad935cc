import anyAscii from "any-ascii";

/**
 * Mealie's slug rule (python-slugify defaults, mealie-api-notes §5.5): quotes become "-", transliterate
 * to ASCII, lowercase, drop commas between digits, every run of other characters becomes "-".
 */
export function slugify(input: string): string {
  let s = input.replace(/['\u2018\u2019]/g, "-");
  s = anyAscii(s).toLowerCase();
  s = s.replace(/(\d),(?=\d)/g, "$1");
  s = s.replace(/[^a-z0-9]+/g, "-");
  s = s.replace(/-{2,}/g, "-").replace(/^-+|-+$/g, "");
  return s;
}

/** Longest slug Larder writes as a file name (bytes of ASCII); longer names are cut at a dash or letter. */
export const MAX_SLUG_LENGTH = 120;

/** A slug safe as a file name: slugified, bounded, never empty, never a dot name. */
export function fileSlug(input: string): string {
  let s = slugify(input).slice(0, MAX_SLUG_LENGTH).replace(/-+$/g, "");
  if (!s) s = "recipe";
  return s;
}
