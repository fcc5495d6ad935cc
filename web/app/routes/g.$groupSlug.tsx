/**
 * /g/:groupSlug/*: the default layout (top bar, drawer, page). Members of the group see it all; anyone
 * may browse a public group read-only (spec §6). A private group is /login for a visitor and a 404 for a
 * signed-in user of another group, so nothing leaks about it.
 */
import { Outlet, useLoaderData } from "react-router";
import { DefaultLayout } from "../components/shell/DefaultLayout.js";
import { resolveGroupViewer } from "../lib/session.server.js";
import { shellData } from "../lib/shell.server.js";
import type { LoaderArgs } from "../lib/context.js";

export async function loader({ request, context, params }: LoaderArgs) {
  const viewer = await resolveGroupViewer(request, context, params.groupSlug);
  return shellData(context, viewer);
}

export default function GroupLayout() {
  const shell = useLoaderData<typeof loader>();
  return (
    <DefaultLayout shell={shell}>
      <Outlet />
    </DefaultLayout>
  );
}
