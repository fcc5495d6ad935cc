import { redirect } from "react-router";
import { groupSlugOf, requireUserActor } from "./session.server.js";
import type { LoaderArgs } from "./context.js";

/** /r/:slug and /recipe/:slug -> /g/{the signed-in user's group}/r/:slug (query kept). */
export async function redirectToGroupRecipe({ request, context, params }: LoaderArgs): Promise<never> {
  const actor = await requireUserActor(request, context);
  const group = groupSlugOf(context, actor.user);
  if (!group || !params.slug) throw new Response("Not Found", { status: 404 });
  const search = new URL(request.url).search;
  throw redirect(`/g/${group}/r/${encodeURIComponent(params.slug)}${search}`);
}
