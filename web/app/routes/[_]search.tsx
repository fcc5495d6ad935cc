/**
 * GET /_search?group={groupSlug}&search={text}: the search dialog's data (spec §2, §7 "Recipe search":
 * page 1, perPage 20, name ascending). Members search their group; visitors of a
 * public group search through the explore service. Not under /api, which is the Mealie API.
 */
import { cardText } from "../lib/markdown.js";
import { resolveGroupViewer } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

/** Spec §9: search page size 20. */
export const SEARCH_PAGE_SIZE = 20;

export interface SearchResult {
  id: string;
  slug: string;
  name: string;
  description: string;
  rating: number | null;
  image: string | null;
}

export async function loader({ request, context }: LoaderArgs) {
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  const noStore = { "Cache-Control": "private, no-store" };
  if (!search) return Response.json({ items: [] as SearchResult[] }, { headers: noStore });

  let viewer: Awaited<ReturnType<typeof resolveGroupViewer>>;
  try {
    viewer = await resolveGroupViewer(request, context, url.searchParams.get("group") ?? undefined);
  } catch {
    // Unknown or private group, or signed out: the same answer for all, nothing about the group leaks.
    return Response.json(
      { items: [] as SearchResult[], error: "not found" },
      { status: 404, headers: noStore },
    );
  }
  const q = { search, page: 1, perPage: SEARCH_PAGE_SIZE, orderBy: "name", orderDirection: "asc" } as const;
  const { larder } = context;
  const list =
    viewer.ownGroup && viewer.actor
      ? larder.recipes.lister.list(viewer.actor, q)
      : larder.explore.recipes(viewer.groupSlug, q);
  const items: SearchResult[] = list.items.map((r) => ({
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: cardText(r.description),
    rating: r.rating ?? null,
    image: r.image ?? null,
  }));
  return Response.json({ items }, { headers: noStore });
}
