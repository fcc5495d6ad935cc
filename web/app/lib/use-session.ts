/** The root loader's view of who is signed in (safe in the browser: types only from root). */
import { useRouteLoaderData } from "react-router";

export interface SessionInfo {
  id: string;
  username: string;
  /** Full name, or the username when there is none (what the top bar and drawer show). */
  userName: string;
  email: string;
  /** The user's own group (spec §6 "own group"); null when the group is gone. */
  groupSlug: string | null;
  householdSlug: string | null;
  admin: boolean;
  advanced: boolean;
  canInvite: boolean;
  canManage: boolean;
  canManageHousehold: boolean;
  canOrganize: boolean;
  /** For /api/media/users/{id}/profile.webp?cacheKey=… */
  cacheKey: string;
  authMethod: "Mealie" | "LDAP" | "OIDC";
  /** Whether a profile picture was uploaded (avatarUrl answers 404 otherwise). */
  hasAvatar: boolean;
}

/** The signed-in user, or null (signed out, or the root loader itself failed). */
export function useSession(): SessionInfo | null {
  return useRouteLoaderData<{ session: SessionInfo | null }>("root")?.session ?? null;
}

/** Spec §6: signed in and the route's groupSlug is the user's own group. */
export function isOwnGroup(session: SessionInfo | null, groupSlug: string | null | undefined): boolean {
  return !!session?.groupSlug && !!groupSlug && session.groupSlug === groupSlug;
}

/** The profile picture URL (the API answers 404 without one; Mantine's Avatar then shows initials). */
export function avatarUrl(session: Pick<SessionInfo, "id" | "cacheKey">): string {
  return `/api/media/users/${encodeURIComponent(session.id)}/profile.webp?cacheKey=${encodeURIComponent(session.cacheKey)}`;
}
