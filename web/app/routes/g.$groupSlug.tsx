/**
 * /g/:groupSlug/*: the group layout (top bar + page). Signed-in members of the group only: signed out ->
 * /login, another group's slug -> 404. A later issue adds the side drawer here (spec §2 Layouts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useSearchParams } from "@remix-run/react";
import { TopBar } from "../components/TopBar.js";
import { requireGroupMember } from "../lib/session.server.js";
import { useSession } from "../lib/use-session.js";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { groupSlug, groupName } = await requireGroupMember(request, context, params.groupSlug);
  return { groupSlug, groupName };
}

export default function GroupLayout() {
  const { groupSlug } = useLoaderData<typeof loader>();
  const session = useSession();
  const [params] = useSearchParams();
  return (
    <>
      <TopBar groupSlug={groupSlug} userName={session?.userName} search={params.get("search") ?? ""} />
      <main className="page" id="main">
        <Outlet />
      </main>
    </>
  );
}
