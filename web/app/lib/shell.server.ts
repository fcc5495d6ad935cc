/** What the default layout needs from core: the group's cookbooks for the drawer (spec §2, §7 Cookbooks). */
import type { AppLoadContext } from "react-router";
import type { UserActor } from "./session.server.js";

export interface ShellCookbook {
  name: string;
  slug: string;
}

export interface ShellData {
  groupSlug: string;
  groupName: string;
  /** Spec §6: the viewer is signed in and this is their group. */
  ownGroup: boolean;
  cookbooks: ShellCookbook[];
}

/**
 * The drawer's cookbooks: the user's household cookbooks in their own group, the group's public
 * cookbooks for visitors (Mealie's "own-group or explore variant"), ordered by position.
 */
export function shellData(
  context: AppLoadContext,
  viewer: { actor: UserActor | null; groupSlug: string; groupName: string; ownGroup: boolean },
): ShellData {
  const { larder } = context;
  let cookbooks: ShellCookbook[] = [];
  try {
    const byPosition = { perPage: -1, orderBy: "position", orderDirection: "asc" } as const;
    const env =
      viewer.ownGroup && viewer.actor
        ? larder.cookbooks.list(viewer.actor, byPosition)
        : larder.explore.cookbooks(viewer.groupSlug, byPosition);
    cookbooks = env.items.map((c) => ({ name: c.name, slug: c.slug }));
  } catch (e) {
    // The drawer is secondary: a failing cookbook list must not take the page down.
    larder.log.warn("drawer: could not list cookbooks", e);
  }
  return { groupSlug: viewer.groupSlug, groupName: viewer.groupName, ownGroup: viewer.ownGroup, cookbooks };
}
