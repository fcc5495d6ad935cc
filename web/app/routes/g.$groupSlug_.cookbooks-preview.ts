/**
 * GET /g/{groupSlug}/cookbooks-preview?filter=…: `{count}`, how many of the group's recipes a cookbook
 * filter selects (the cookbook editor's live preview); `{count: null}` for a filter core refuses.
 */
import { previewCount } from "../lib/cookbooks.server.js";
import { requireGroupMember } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context, params }: LoaderArgs) {
  const { actor } = await requireGroupMember(request, context, params.groupSlug);
  const filter = (new URL(request.url).searchParams.get("filter") ?? "").slice(0, 10_000);
  return Response.json(
    { count: previewCount(context, actor, filter) },
    { headers: { "Cache-Control": "no-store" } },
  );
}
