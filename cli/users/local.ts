/** Users through core directly, while this process holds the folder's lock (no server running). */
import type { Larder } from "../../core/larder.js";
import type { Actor } from "../../core/actor.js";
import type { UserRecord } from "../../core/schemas/records.js";
import { superUserIdOf } from "../../core/policy/users.js";
import { CliError, EXIT } from "../output.js";
import { pickPlacement, type PlaceOption } from "./placement.js";
import type { NewUser, UserBackend, UserView } from "./types.js";

/**
 * Who a local command acts as: the super user (the longest-standing admin), the same account a live
 * server lets the lock token act as, so core's rules (never demote yourself…) apply the same way.
 */
export function localActor(larder: Larder): Actor {
  const id = superUserIdOf(larder.users.all());
  const user = id ? larder.users.byId(id) : null;
  if (!user)
    throw new CliError(
      "The data folder has no administrator (create one with: larder user add --admin)",
      EXIT.failure,
    );
  return { kind: "user", user, integrationId: "larder-cli" };
}

export class LocalUsers implements UserBackend {
  readonly mode = "local" as const;

  constructor(private larder: Larder) {}

  async list(): Promise<UserView[]> {
    return this.larder.users.all().map((u) => this.view(u));
  }

  async add(user: NewUser): Promise<UserView> {
    const place = pickPlacement(
      placeOptions(this.larder),
      user.group,
      user.household,
      this.larder.site.data.defaultGroup,
    );
    const group = this.larder.directory.groupBySlug(place.group.slug);
    const household = group
      ? this.larder.directory.householdsOf(group.id).find((h) => h.slug === place.household.slug)
      : undefined;
    if (!group || !household) throw new CliError(`No such group: ${place.group.slug}`, EXIT.notFound);
    const created = await this.larder.users.create(
      {
        username: user.username,
        fullName: user.fullName,
        email: user.email,
        admin: user.admin,
        advanced: false,
        // An admin made here can do what the first admin can; Mealie's admin form sets the same.
        canInvite: user.admin,
        canManage: user.admin,
        canManageHousehold: user.admin,
        canOrganize: user.admin,
      },
      { groupId: group.id, householdId: household.id },
    );
    await this.larder.auth.setPassword(created.id, user.password);
    return this.view(created);
  }

  async setPassword(login: string, password: string): Promise<UserView> {
    const user = this.larder.users.byLogin(login);
    if (!user) throw new CliError(`No such user: ${login}`, EXIT.notFound);
    // changePassword, not setPassword: a password change ends the user's sessions (ARCHITECTURE §5).
    await this.larder.auth.changePassword(user.id, password);
    return this.view(user);
  }

  private find(login: string): UserRecord {
    const user = this.larder.users.byLogin(login);
    if (!user) throw new CliError(`No such user: ${login}`, EXIT.notFound);
    return user;
  }

  async unlock(login: string | null): Promise<{ unlocked: number }> {
    const actor = localActor(this.larder);
    if (login === null) return { unlocked: await this.larder.accounts.unlock(actor, true) };
    return { unlocked: await this.larder.accounts.unlockOne(actor, this.find(login).id) };
  }

  async setAdmin(login: string, admin: boolean): Promise<UserView> {
    const user = this.find(login);
    const flags = admin
      ? { canInvite: true, canManage: true, canManageHousehold: true, canOrganize: true }
      : {};
    const updated = await this.larder.accounts.update(localActor(this.larder), user.id, {
      email: user.email,
      admin,
      ...flags,
    });
    return this.view(updated);
  }

  private view(u: UserRecord): UserView {
    return {
      id: u.id,
      username: u.username,
      fullName: u.fullName,
      email: u.email,
      admin: u.admin,
      group: this.larder.directory.groupById(u.groupId)?.name ?? "",
      household: this.larder.directory.householdById(u.householdId)?.household.name ?? "",
    };
  }
}

function placeOptions(larder: Larder): PlaceOption[] {
  return larder.directory.all().map(({ group, households }) => ({
    slug: group.slug,
    name: group.name,
    households: households.map((h) => ({ slug: h.slug, name: h.name })),
  }));
}
