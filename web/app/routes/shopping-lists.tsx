/**
 * /shopping-lists/*: the default layout over the signed-in user's own group and household (spec §2).
 * Signed-out visitors go to /login and come back.
 */
import { Outlet, useLoaderData } from "react-router";
import type { LinksFunction } from "react-router";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { requireUserActor } from "../lib/session.server.js";
import { shellData } from "../lib/shell.server.js";
import shoppingStyles from "../styles/shopping.css?url";
import type { LoaderArgs } from "../lib/context.js";
import { stylesheet } from "../lib/stylesheets.js";

export const links: LinksFunction = () => [stylesheet(shoppingStyles)];

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const group = context.larder.directory.groupById(actor.user.groupId);
  if (!group) throw new Response("Not Found", { status: 404 });
  return shellData(context, { actor, groupSlug: group.slug, groupName: group.name, ownGroup: true });
}

export default function ShoppingLayout() {
  const shell = useLoaderData<typeof loader>();
  return (
    <DefaultLayout shell={shell}>
      <Outlet />
    </DefaultLayout>
  );
}
