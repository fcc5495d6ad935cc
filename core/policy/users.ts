/**
 * Who may change whom (spec §6, mealie-api-notes §4.3 and §4.5): profile updates, household
 * permissions and user deletion, each an ordered table of sentences, plus the own-group test the UI
 * uses to show members-only controls.
 */
import type { UserRecord } from "../schemas/records.js";
import {
  ALLOW,
  deny,
  firstVerdict,
  type Decision,
  type PolicyUser,
  type RoutedUser,
  type Rule,
} from "./subjects.js";

/** Signed in, and the route's group is the user's own (spec §6). No route group means not own group. */
export function isOwnGroup(
  user: Pick<RoutedUser, "groupSlug"> | null,
  groupSlug: string | null | undefined,
): boolean {
  return user !== null && typeof groupSlug === "string" && groupSlug !== "" && user.groupSlug === groupSlug;
}

// ---- updating a user ----

/** Flags that only the household-permissions route (or an admin) may change. */
const MANAGED_FLAGS = ["canInvite", "canManage", "canManageHousehold", "canOrganize"] as const;

/**
 * The policy-relevant part of a user update, after the service has resolved the wire body (group and
 * household names to ids). An absent key means "unchanged"; `null` for group or household means
 * "remove it", which counts as a change.
 */
export interface UserPatch {
  admin?: boolean;
  groupId?: string | null;
  householdId?: string | null;
  canInvite?: boolean;
  canManage?: boolean;
  canManageHousehold?: boolean;
  canOrganize?: boolean;
}

type UpdateArgs = [actor: PolicyUser, target: PolicyUser, patch: UserPatch];

function changes<T>(next: T | undefined, current: T): boolean {
  return next !== undefined && next !== current;
}

/**
 * Mealie's PUT /users/{id} rules. Larder adds one: a non-admin cannot change their own permission
 * flags here either, since that would bypass the canManage check of PUT /households/permissions.
 * Values equal to the current ones pass, so a client echoing its UserOut back is not refused.
 */
export const USER_UPDATE_RULES: readonly Rule<UpdateArgs>[] = [
  {
    says: "only admins may change other users",
    decide: (actor, target) =>
      actor.id !== target.id && !actor.admin ? deny("only admins may change other users") : undefined,
  },
  {
    says: "only admins may grant admin",
    decide: (actor, target, patch) =>
      !actor.admin && changes(patch.admin, target.admin) ? deny("only admins may grant admin") : undefined,
  },
  {
    says: "only admins may move a user to another group or household",
    decide: (actor, target, patch) =>
      !actor.admin &&
      (changes(patch.groupId, target.groupId) || changes(patch.householdId, target.householdId))
        ? deny("only admins may move a user to another group or household")
        : undefined,
  },
  {
    says: "only admins or household managers may change permission flags",
    decide: (actor, target, patch) =>
      !actor.admin && MANAGED_FLAGS.some((flag) => changes(patch[flag], target[flag]))
        ? deny("permissions are changed through household permissions")
        : undefined,
  },
  {
    says: "an admin may not demote themselves",
    // Mealie's message; it keeps a site from losing its last admin by accident.
    decide: (actor, target, patch) =>
      actor.admin && actor.id === target.id && patch.admin === false
        ? deny("you cannot demote yourself")
        : undefined,
  },
];

/** Self or admin; a non-admin cannot set admin, move groups or raise flags; an admin cannot demote self. */
export function canUpdateUser(actor: PolicyUser | null, target: PolicyUser, patch: UserPatch): Decision {
  if (actor === null) return deny("sign in to change users");
  return firstVerdict(USER_UPDATE_RULES, [actor, target, patch], ALLOW);
}

// ---- household permissions ----

type PermissionArgs = [actor: PolicyUser, target: PolicyUser];

/**
 * PUT /households/permissions. Spec §6's "group owners cannot change their own permissions": Larder
 * has no owner record, and any manager could lock a household out by revoking their own canManage,
 * so nobody changes their own flags here; another manager (or an admin via PUT /users) does.
 * Reasons for the scope checks are Mealie's messages.
 */
export const PERMISSION_CHANGE_RULES: readonly Rule<PermissionArgs>[] = [
  {
    says: "only users who can manage may change permissions",
    decide: (actor) => (actor.canManage ? undefined : deny("you do not have permission to manage members")),
  },
  {
    says: "permissions may be changed only for members of the same group",
    decide: (actor, target) =>
      actor.groupId === target.groupId ? undefined : deny("User is not a member of this group"),
  },
  {
    says: "permissions may be changed only for members of the same household",
    decide: (actor, target) =>
      actor.householdId === target.householdId ? undefined : deny("User is not a member of this household"),
  },
  {
    says: "nobody may change their own permissions",
    decide: (actor, target) =>
      actor.id === target.id ? deny("you cannot change your own permissions") : undefined,
  },
];

/** canManage, target in the same group and household, and not oneself. */
export function canChangePermissions(actor: PolicyUser | null, target: PolicyUser): Decision {
  if (actor === null) return deny("sign in to change permissions");
  return firstVerdict(PERMISSION_CHANGE_RULES, [actor, target], ALLOW);
}

// ---- deleting a user ----

/** What the delete rule needs to know about the site: who its super user is (see superUserIdOf). */
export interface UserDeleteContext {
  superUserId: string | null;
}

type DeleteArgs = [actor: PolicyUser, target: Pick<PolicyUser, "id">, ctx: UserDeleteContext];

export const USER_DELETE_RULES: readonly Rule<DeleteArgs>[] = [
  {
    says: "only admins may delete users",
    decide: (actor) => (actor.admin ? undefined : deny("only admins may delete users")),
  },
  {
    says: "nobody may delete themselves",
    decide: (actor, target) => (actor.id === target.id ? deny("you cannot delete yourself") : undefined),
  },
  {
    says: "the super user may not be deleted",
    decide: (_actor, target, ctx) =>
      ctx.superUserId !== null && target.id === ctx.superUserId
        ? deny("the super user cannot be deleted")
        : undefined,
  },
];

/** Admin only; never oneself; never the super user. */
export function canDeleteUser(
  actor: PolicyUser | null,
  target: Pick<PolicyUser, "id">,
  ctx: UserDeleteContext,
): Decision {
  if (actor === null) return deny("sign in to delete users");
  return firstVerdict(USER_DELETE_RULES, [actor, target, ctx], ALLOW);
}

/**
 * The super user: the longest-standing admin (earliest `createdAt`; a missing or unreadable date
 * counts as latest; ties keep document order, which is creation order). Larder keeps no "first
 * admin" record, and Mealie's rule (user id 1) has no equivalent with UUIDs; choosing among current
 * admins means that, with self-deletion also refused, a site always keeps an admin.
 */
export function superUserIdOf(
  users: readonly Pick<UserRecord, "id" | "admin" | "createdAt">[],
): string | null {
  let best: { id: string; at: number } | null = null;
  for (const user of users) {
    if (!user.admin) continue;
    const parsed = user.createdAt === null ? Number.NaN : Date.parse(user.createdAt);
    const at = Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
    if (best === null || at < best.at) best = { id: user.id, at };
  }
  return best?.id ?? null;
}
