/** The root loader's view of who is signed in (safe in the browser: types only from root). */
import { useRouteLoaderData } from "@remix-run/react";

export interface SessionInfo {
  userName: string;
  groupSlug: string | null;
}

/** The signed-in user for the top bar, or null (signed out, or the root loader itself failed). */
export function useSession(): SessionInfo | null {
  return useRouteLoaderData<{ session: SessionInfo | null }>("root")?.session ?? null;
}
