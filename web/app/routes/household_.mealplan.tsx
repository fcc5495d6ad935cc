/**
 * /household/mealplan/*: the default layout over the signed-in user's own group (planner, plan rules).
 * Named `household_` so it does not nest under a /household settings layout of its own.
 */
import { Outlet, useLoaderData } from "react-router";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { requireUserActor } from "../lib/session.server.js";
import { shellData } from "../lib/shell.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context }: LoaderArgs) {
  const actor = await requireUserActor(request, context);
  const group = context.larder.directory.groupById(actor.user.groupId);
  if (!group) throw new Response("Not Found", { status: 404 });
  return shellData(context, { actor, groupSlug: group.slug, groupName: group.name, ownGroup: true });
}

export default function MealplanLayout() {
  const shell = useLoaderData<typeof loader>();
  return (
    <DefaultLayout shell={shell}>
      <Outlet />
    </DefaultLayout>
  );
}
