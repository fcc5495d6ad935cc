/** `/`: the signed-in user's group home, else the first-time setup on a fresh server, else the login page. */
import { redirect } from "react-router";
import { getUserActor, groupSlugOf } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context }: LoaderArgs) {
  const actor = await getUserActor(request, context);
  const slug = actor ? groupSlugOf(context, actor.user) : null;
  // A fresh server's first visit: the first-time setup (decision 0100).
  if (!actor && (await context.larder.setup.needed())) throw redirect("/setup");
  throw redirect(slug ? `/g/${slug}` : "/login");
}
