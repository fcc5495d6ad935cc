/**
 * /user/*: the default layout over the signed-in user's own group (profile, favourites). Signed out
 * visitors go to /login and come back.
 */
import { Outlet, useLoaderData } from "react-router";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { requireUserActor } from "../lib/session.server.js";
import { shellData } from "../lib/shell.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const group = context.larder.directory.groupById(actor.user.groupId);
  if (!group) return null; // a user whose group is gone still reaches the profile, without a drawer
  return shellData(context, { actor, groupSlug: group.slug, groupName: group.name, ownGroup: true });
}

export default function UserLayout() {
  const shell = useLoaderData<typeof loader>();
  return (
    <DefaultLayout shell={shell}>
      <Outlet />
    </DefaultLayout>
  );
}
