/**
 * Household recipe actions (spec §3, §7): a `link` action opens its URL with the placeholders filled in;
 * a `post` action is triggered through core. Only http(s) addresses are opened: an action URL is user
 * text, and a `javascript:` one must not run in the page's origin.
 */

export interface RecipeActionItem {
  id: string;
  title: string;
  actionType: "link" | "post";
  url: string;
}

/**
 * Fills `${url}` (the page address), `${id}` and `${slug}` (the recipe's), the placeholders Mealie
 * defines; every occurrence, not just the first. Returns null unless the result is an http(s) URL.
 */
export function resolveActionUrl(
  template: string,
  v: { pageUrl: string; id: string; slug: string },
): string | null {
  const url = template
    .split("${url}")
    .join(v.pageUrl)
    .split("${id}")
    .join(v.id)
    .split("${slug}")
    .join(v.slug)
    .trim();
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}
