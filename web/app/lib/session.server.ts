/**
 * The browser session: the httpOnly cookie `mealie.access_token` holds the same session token the API
 * reads (web/api/handler.ts), so signing in here also signs the browser in to /api (images, later the UI).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { redirect, type AppLoadContext } from "react-router";
import type { Actor } from "../../../core/actor.js";
import type { UserRecord } from "../../../core/schemas/records.js";
import type { SessionInfo } from "./use-session.js";
import {
  SESSION_COOKIE,
  isSecure,
  readCookie,
  sessionCookie as sessionSetCookie,
} from "../../server/edge.js";

// Cookies and the same-origin rule for unsafe requests are web/server/edge.ts, shared with /api; the
// server applies that rule before any action runs, so actions need no check of their own.
export { SESSION_COOKIE, readCookie };

export type UserActor = Extract<Actor, { kind: "user" }>;

/** The signed-in user's actor, or null (no cookie, expired or revoked session). */
export async function getUserActor(request: Request, context: AppLoadContext): Promise<UserActor | null> {
  const token = readCookie(request.headers.get("Cookie"), SESSION_COOKIE);
  if (!token) return null;
  const actor = await context.larder.auth.authenticateToken(token);
  return actor && actor.kind === "user" ? actor : null;
}

/** The signed-in user, or a redirect to /login that comes back here afterwards. */
export async function requireUserActor(request: Request, context: AppLoadContext): Promise<UserActor> {
  const actor = await getUserActor(request, context);
  if (actor) return actor;
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  throw redirect(back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`);
}

/** The slug of the user's group, or null when the group is gone. */
export function groupSlugOf(context: AppLoadContext, user: UserRecord): string | null {
  return context.larder.directory.groupById(user.groupId)?.slug ?? null;
}

/** What the browser may know about the signed-in user (root loader → useSession()). */
export function sessionInfo(context: AppLoadContext, user: UserRecord): SessionInfo {
  const household = context.larder.directory.householdById(user.householdId);
  return {
    id: user.id,
    username: user.username,
    userName: user.fullName || user.username,
    email: user.email,
    groupSlug: groupSlugOf(context, user),
    householdSlug: household?.household.slug ?? null,
    admin: user.admin,
    advanced: user.advanced,
    canInvite: user.canInvite,
    canManage: user.canManage,
    canManageHousehold: user.canManageHousehold,
    canOrganize: user.canOrganize,
    cacheKey: user.cacheKey,
    authMethod: user.authMethod,
    // Only ask for the picture when there is one (a 404 would show a broken image before hydration).
    hasAvatar: hasAvatarFile(context.larder, user.id),
  };
}

/** Whether the user has a profile picture on disk (put there by the app, or by hand). */
export function hasAvatarFile(larder: AppLoadContext["larder"], userId: string): boolean {
  return (
    /^[A-Za-z0-9-]{1,64}$/.test(userId) &&
    existsSync(join(larder.accounts.avatars.dir, userId, "profile.webp"))
  );
}

/**
 * Who is looking at /g/:groupSlug (spec §6): a member of the group (`ownGroup`), or anyone (signed in
 * elsewhere or not at all) browsing a public group read-only through the explore service. A private or
 * unknown group is a trip to /login for a visitor and a 404 for a signed-in user of another group.
 */
export async function resolveGroupViewer(
  request: Request,
  context: AppLoadContext,
  groupSlug: string | undefined,
): Promise<{ actor: UserActor | null; groupSlug: string; groupName: string; ownGroup: boolean }> {
  const actor = await getUserActor(request, context);
  const own = actor ? context.larder.directory.groupById(actor.user.groupId) : null;
  if (actor && own && groupSlug && own.slug === groupSlug) {
    return { actor, groupSlug: own.slug, groupName: own.name, ownGroup: true };
  }
  const group = groupSlug ? context.larder.directory.groupBySlug(groupSlug) : null;
  if (group && group.preferences.privateGroup === false) {
    return { actor, groupSlug: group.slug, groupName: group.name, ownGroup: false };
  }
  if (!actor) await requireUserActor(request, context);
  throw new Response("Not Found", { status: 404 });
}

/** The signed-in user, checked to belong to `groupSlug`; another group's slug is a 404, never its data. */
export async function requireGroupMember(
  request: Request,
  context: AppLoadContext,
  groupSlug: string | undefined,
): Promise<{ actor: UserActor; groupSlug: string; groupName: string }> {
  const actor = await requireUserActor(request, context);
  const group = context.larder.directory.groupById(actor.user.groupId);
  if (!group || !groupSlug || group.slug !== groupSlug) throw new Response("Not Found", { status: 404 });
  return { actor, groupSlug: group.slug, groupName: group.name };
}

/** Set-Cookie value for a session token (maxAge in seconds; 0 clears the cookie). */
export function sessionCookie(
  request: Request,
  context: AppLoadContext,
  token: string,
  maxAge: number,
): string {
  const secure = isSecure(
    request.url,
    request.headers.get("X-Forwarded-Proto"),
    context.larder.config.baseUrl,
  );
  return sessionSetCookie(token, maxAge, secure);
}

/** A same-site path to go back to after login; anything else (absolute, protocol-relative) is dropped. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined): string | null {
  if (typeof value !== "string") return null;
  // Browsers drop tabs and line breaks from a URL ("/\t/evil.example" becomes "//evil.example") and read
  // "\" as "/": any of them, or any other control character, and the path is not ours to follow.
  if (/[\x00-\x1f\x7f\\]/.test(value)) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  if (value.startsWith("/login") || value.startsWith("/logout")) return null;
  return value;
}
