/**
 * Managing user accounts (mealie-api-notes §4.3, §4.13; spec §5, §6): the admin's CRUD, a user's own
 * profile and password, lockout release, reset tokens and profile images. Every method takes the
 * actor and applies the policies of core/policy/users.ts here, so no route can skip them; a user of
 * another group is looked up as if they did not exist (404), never shown.
 */
import type { Parts } from "../parts.js";
import { type Actor } from "../actor.js";
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
} from "../errors.js";
import type { UserRecord } from "../schemas/records.js";
import type { GroupData, HouseholdData } from "../groups/registry.js";
import { canDeleteUser, canUpdateUser, superUserIdOf, type UserPatch } from "../policy/users.js";
import { AvatarStore } from "./avatars.js";
import { SPEC_MESSAGES } from "./users-service.js";
import { ChangePasswordBody, UserCreateBody, UserUpdateBody } from "./user-input.js";
import { newId } from "../util/ids.js";
import { refuseInDemo } from "../policy/demo.js";
import { listQuery } from "../query/list.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import { peopleTables } from "../groups/related-tables.js";
import { textRanker } from "../search/text-search.js";
import type { Wire } from "../wire/index.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "auth" | "config" | "directory" | "folder" | "groups" | "recipes" | "site" | "users">;

const FLAGS = [
  "admin",
  "advanced",
  "canInvite",
  "canManage",
  "canManageHousehold",
  "canOrganize",
  "showAnnouncements",
] as const;

export function signedIn(actor: Actor): UserRecord {
  if (actor.kind !== "user") throw new UnauthorizedError();
  return actor.user;
}

export function adminOf(actor: Actor): UserRecord {
  const user = signedIn(actor);
  if (!user.admin) throw new ForbiddenError("Forbidden", "Forbidden");
  return user;
}

export class AccountsService {
  readonly avatars: AvatarStore;

  constructor(private readonly larder: Deps) {
    this.avatars = new AvatarStore(larder.folder);
  }

  /**
   * A user the actor may see: an admin sees everyone, anybody else only their own group. Another
   * group's id answers exactly like an unknown one.
   */
  visibleUser(actor: Actor, id: string): UserRecord {
    const me = signedIn(actor);
    const user = this.larder.users.byId(id);
    if (!user || (!me.admin && user.groupId !== me.groupId)) throw new NotFoundError("User Not Found");
    return user;
  }

  /** GET /admin/users: every user of every group. */
  all(actor: Actor): UserRecord[] {
    adminOf(actor);
    return this.larder.users.all();
  }

  /** GET /users, /admin/users: every user as `UserOut`, searched by username, full name and e-mail. */
  list(actor: Actor, query: ListQuery): Page<Wire<"UserOut">> {
    const page = listQuery(this.all(actor), query, peopleTables(this.larder).users, {
      search: textRanker<UserRecord>([(u) => u.username, (u) => u.fullName, (u) => u.email]),
    });
    return mapPage(page, (u) => this.larder.directory.userOut(u, false));
  }

  /** POST /users, /admin/users: group and household by name (defaults: the site's default group, "Family"). */
  async create(actor: Actor, raw: unknown): Promise<UserRecord> {
    adminOf(actor);
    const body = UserCreateBody.parse(raw ?? {});
    const { group, household } = this.placement(body.group ?? null, body.household ?? null);
    const { password, group: _g, household: _h, showAnnouncements, ...profile } = body;
    const extra = showAnnouncements === undefined ? {} : { showAnnouncements };
    // Checked before the password is hashed, and again as the account is written.
    this.larder.users.assertAvailable(profile);
    return this.larder.auth.withPassword(password, (id) =>
      this.larder.users.create(
        profile,
        { groupId: group.doc.data.id, householdId: household.doc.data.id },
        { ...extra, id },
      ),
    );
  }

  /** Resolve a group and household named by an admin; unknown names are 404s. */
  private placement(
    groupName: string | null,
    householdName: string | null,
  ): { group: GroupData; household: HouseholdData } {
    const groups = this.larder.groups;
    const group = groupName
      ? groups.byName(groupName)
      : (groups.bySlugOrNull(this.larder.site.data.defaultGroup) ?? groups.all()[0] ?? null);
    if (!group) throw new NotFoundError("group not found");
    const household = householdName
      ? groups.householdIn(group, householdName)
      : groups.defaultHousehold(group);
    if (!household) throw new NotFoundError("household not found");
    return { group, household };
  }

  /**
   * PUT /users/{id} and PUT /admin/users/{id}. Absent fields keep their values; the password and
   * authMethod are never taken from here. Who may change what is USER_UPDATE_RULES.
   */
  async update(actor: Actor, id: string, raw: unknown): Promise<UserRecord> {
    const me = signedIn(actor);
    const target = this.visibleUser(actor, id);
    const body = UserUpdateBody.parse(raw ?? {});
    const where = this.movedTo(me, target, body);
    const patch: UserPatch = { ...where };
    for (const f of ["admin", "canInvite", "canManage", "canManageHousehold", "canOrganize"] as const) {
      if (body[f] !== undefined) patch[f] = body[f];
    }
    const verdict = canUpdateUser(me, target, patch);
    if (!verdict.ok) throw new ForbiddenError(verdict.reason);
    // The demo's login is printed for every visitor: it must keep working until the next reset.
    if (
      target.admin &&
      ((body.username !== undefined && body.username !== target.username) ||
        body.email.toLowerCase() !== target.email.toLowerCase() ||
        body.admin === false)
    )
      refuseInDemo(this.larder.config, "changeAdminLogin");
    const users = this.larder.users;
    if (body.username !== undefined && users.usernameTaken(body.username, target.id)) {
      throw new ConflictError(SPEC_MESSAGES.usernameTaken, {
        message: "This username is already taken",
        error: true,
        exception: null,
      });
    }
    if (users.emailTaken(body.email, target.id)) {
      throw new ConflictError(SPEC_MESSAGES.emailTaken, {
        message: "This email is already in use",
        error: true,
        exception: null,
      });
    }
    const changes: Partial<UserRecord> = { email: body.email, ...where };
    if (body.username !== undefined) changes.username = body.username;
    if (body.fullName !== undefined) changes.fullName = body.fullName;
    if (body.lastReadAnnouncement !== undefined) changes.lastReadAnnouncement = body.lastReadAnnouncement;
    for (const f of FLAGS) if (body[f] !== undefined) changes[f] = body[f];
    return users.update(target.id, changes);
  }

  /**
   * Where an update would move the user, when it names a group or household. A name that does not
   * resolve is a 404 for an admin; for anyone else it is an attempt to move, which the policy refuses.
   */
  private movedTo(
    me: UserRecord,
    target: UserRecord,
    body: UserUpdateBody,
  ): { groupId?: string; householdId?: string } {
    const groups = this.larder.groups;
    const named = body.groupId || body.group || body.householdId || body.household;
    if (!named) return {};
    const current = groups.byId(target.groupId);
    const group = body.groupId ? groups.byId(body.groupId) : body.group ? groups.byName(body.group) : current;
    if (!group) {
      if (me.admin) throw new NotFoundError("group not found");
      return { groupId: "(unknown group)" };
    }
    const wanted = body.householdId || body.household;
    const household = wanted
      ? groups.householdIn(group, wanted)
      : group === current
        ? groups.household(target.groupId, target.householdId)
        : groups.defaultHousehold(group);
    if (!household) {
      if (me.admin) throw new NotFoundError("household not found");
      return { householdId: "(unknown household)" };
    }
    return { groupId: group.doc.data.id, householdId: household.doc.data.id };
  }

  /**
   * PUT /users/password: 400 "Invalid current password" when the current one is wrong, 400 for
   * users who sign in through LDAP or OIDC. Every other session of the user ends.
   */
  async changePassword(actor: Actor, raw: unknown): Promise<void> {
    const me = signedIn(actor);
    const body = ChangePasswordBody.parse(raw ?? {});
    if (me.authMethod !== "Mealie")
      throw new BadRequestError(`${me.authMethod} users cannot change their password here`);
    if (me.admin) refuseInDemo(this.larder.config, "changeAdminLogin");
    if (!(await this.larder.auth.verifyCurrentPassword(me.id, body.currentPassword)))
      throw new BadRequestError("Invalid current password");
    await this.larder.auth.changePassword(
      me.id,
      body.newPassword,
      actor.kind === "user" ? actor.sessionId : undefined,
    );
  }

  /**
   * DELETE /users/{id}, /admin/users/{id}: never oneself, never the super user. The user's recipes
   * pass to their group's first admin (they stay in the group), and everything per machine about them
   * (password, sessions, API tokens, reset links) and their picture go.
   */
  async remove(actor: Actor, id: string): Promise<UserRecord> {
    const me = adminOf(actor);
    refuseInDemo(this.larder.config, "deleteUser");
    const target = this.visibleUser(actor, id);
    const verdict = canDeleteUser(me, target, { superUserId: superUserIdOf(this.larder.users.all()) });
    if (!verdict.ok) throw new ForbiddenError(verdict.reason);
    const removed = await this.larder.users.remove(target.id);
    await this.larder.auth.forgetUser(target.id);
    await this.avatars.remove(target.id);
    const group = this.larder.groups.byId(target.groupId);
    const heir = this.larder.users.firstAdminOf(target.groupId);
    if (group && heir) {
      await this.larder.recipes.rewriteWhere(group, (doc) =>
        doc.owner === target.id ? { ...doc, owner: heir.id } : null,
      );
    }
    return removed;
  }

  /** POST /admin/users/unlock?force=: expired locks only, or every lock with `force`. */
  async unlock(actor: Actor, force: boolean): Promise<number> {
    adminOf(actor);
    return this.larder.auth.unlockUsers(force);
  }

  /** Larder's POST /admin/users/{id}/unlock (the CLI's `user unlock`): one user. */
  async unlockOne(actor: Actor, id: string): Promise<number> {
    adminOf(actor);
    const user = this.visibleUser(actor, id);
    return (await this.larder.auth.unlockUser(user.id)) ? 1 : 0;
  }

  /** POST /admin/users/password-reset-token: a reset token for a user given by e-mail (any casing). */
  async resetTokenFor(actor: Actor, email: string): Promise<string> {
    adminOf(actor);
    refuseInDemo(this.larder.config, "resetLink");
    const user = this.larder.users.byEmail(email);
    if (!user) throw new NotFoundError("User Not Found");
    return this.larder.auth.createResetToken(user.id);
  }

  /** POST /users/{id}/image: oneself, or an admin; a new cacheKey tells clients to fetch it again. */
  async setAvatar(actor: Actor, id: string, upload: Buffer): Promise<UserRecord> {
    const me = signedIn(actor);
    const target = this.visibleUser(actor, id);
    if (target.id !== me.id && !me.admin) throw new ForbiddenError("Permission Denied");
    await this.avatars.save(target.id, upload);
    return this.larder.users.update(target.id, { cacheKey: newId().slice(0, 8) });
  }

  /** GET /users/{id}/image: a member of the actor's group (any user for an admin). */
  avatarFor(actor: Actor, id: string): Promise<{ data: Buffer; etag: string }> {
    return this.avatars.read(
      this.visibleUser(actor, id).id,
      undefined,
      (uid) => this.larder.users.byId(uid) !== null,
    );
  }

  /** GET /media/users/{id}/profile.webp: public like Mealie's; a user without a picture has the default. */
  avatarMedia(id: string, fileName: string): Promise<{ data: Buffer; etag: string }> {
    return this.avatars.read(id, fileName, (uid) => this.larder.users.byId(uid) !== null);
  }
}
