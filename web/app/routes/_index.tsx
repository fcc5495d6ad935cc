/** `/`: the signed-in user's group home, else the login page. */
import { redirect } from "react-router";
import { getUserActor, groupSlugOf } from "../lib/session.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context }: LoaderArgs) {
  const actor = await getUserActor(request, context);
  const slug = actor ? groupSlugOf(context, actor.user) : null;
  throw redirect(slug ? `/g/${slug}` : "/login");
}
