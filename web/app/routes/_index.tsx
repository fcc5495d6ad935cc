/** `/`: the signed-in user's group home, else the login page. */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getUserActor, groupSlugOf } from "../lib/session.server.js";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await getUserActor(request, context);
  const slug = actor ? groupSlugOf(context, actor.user) : null;
  throw redirect(slug ? `/g/${slug}` : "/login");
}
