/**
 * Route guards (spec §6) as data: a route declares which guards it needs, `checkGuards` says whether
 * the viewer passes and, if not, why. The UI redirects to / and logs the reason; the API answers 403.
 * Flag guards give admins no bypass, as in Mealie's middleware and its permission checks.
 */
import { ForbiddenError } from "../errors.js";
import { isOwnGroup } from "./users.js";
import { ALLOW, deny, type Decision, type PermissionFlag, type PermissionHolder } from "./subjects.js";

export const GUARD_NAMES = [
  "admin",
  "advanced",
  "canManageHousehold",
  "canManage",
  "canOrganize",
  "groupMatch",
] as const;
export type GuardName = (typeof GUARD_NAMES)[number];

/** The guards a route needs: `{ canManage: true }`. Absent or false means not needed. */
export type RouteGuards = Readonly<Partial<Record<GuardName, boolean>>>;

/** Flags plus, for the group-match guard, the user's group slug (UserOut has it; core adds it). */
export type GuardUser = PermissionHolder & { groupSlug?: string };

export interface GuardContext {
  /** The route's `groupSlug` parameter, for the group-match guard. */
  groupSlug?: string | null;
}

export type GuardCheck = (user: GuardUser, ctx: GuardContext) => boolean;

/** Each guard as a sentence and a test, checked in this order; the first failure is reported. */
export const GUARD_RULES: Readonly<Record<GuardName, { says: string; passes: GuardCheck }>> = {
  admin: { says: "requires an admin", passes: (user) => user.admin },
  advanced: { says: "requires advanced mode", passes: (user) => user.advanced },
  canManageHousehold: {
    says: "requires permission to manage the household",
    passes: (user) => user.canManageHousehold,
  },
  canManage: { says: "requires permission to manage the group", passes: (user) => user.canManage },
  canOrganize: { says: "requires permission to organize group data", passes: (user) => user.canOrganize },
  groupMatch: {
    says: "requires the route's group to be the user's own",
    // A route declaring this guard always has a groupSlug; if it is missing, refusing is the safe side.
    passes: (user, ctx) =>
      user.groupSlug !== undefined && isOwnGroup({ groupSlug: user.groupSlug }, ctx.groupSlug),
  },
};

/**
 * Whether the viewer passes every guard the route needs. Any guard implies being signed in, so a
 * visitor fails all of them; a route with no guards lets everyone in.
 */
export function checkGuards(user: GuardUser | null, guards: RouteGuards, ctx: GuardContext = {}): Decision {
  const needed = GUARD_NAMES.filter((name) => guards[name] === true);
  if (needed.length === 0) return ALLOW;
  if (user === null) return deny(`not signed in; the route ${GUARD_RULES[needed[0]].says}`);
  for (const name of needed) {
    const rule = GUARD_RULES[name];
    if (!rule.passes(user, ctx)) return deny(`guard ${name} failed: the route ${rule.says}`);
  }
  return ALLOW;
}

/**
 * Throws ForbiddenError unless the user holds `flag`. The body is Mealie's bare `{"detail":"Forbidden"}`,
 * which is what its admin dependency and its permission checks send.
 */
export function requirePermission(user: PermissionHolder, flag: PermissionFlag): void {
  if (user[flag] !== true) throw new ForbiddenError("Forbidden", "Forbidden");
}
