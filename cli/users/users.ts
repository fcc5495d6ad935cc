/**
 * `larder user …`, written once over the user calls (user-admin.ts): which user a login names, where a
 * new user goes, what a command prints. The same whether core or a running server answers.
 */
import { withCalls, type CallsMode } from "../calls.js";
import { CliError, EXIT } from "../output.js";
import { pickPlacement } from "./placement.js";
import { userAdminCalls, type UserAdminCalls, type UserOut } from "./user-admin.js";
import type { NewUser, UserBackend, UserView } from "./types.js";

/** Every permission flag: an admin made by the CLI can do what the first admin can, as in Mealie's form. */
const ALL_FLAGS = { canInvite: true, canManage: true, canManageHousehold: true, canOrganize: true };

export function withUsers<T>(dataDir: string, fn: (users: UserBackend) => Promise<T>): Promise<T> {
  return withCalls(dataDir, userAdminCalls, (calls, mode) => fn(new Users(mode, calls)));
}

class Users implements UserBackend {
  constructor(
    readonly mode: CallsMode,
    private readonly calls: UserAdminCalls,
  ) {}

  async list(): Promise<UserView[]> {
    return (await this.calls.users()).map(view);
  }

  async add(user: NewUser): Promise<UserView> {
    // Resolved here (the calls take names) so an unknown group fails with the CLI's message and code.
    const { groups, defaultGroup } = await this.calls.places();
    const place = pickPlacement(groups, user.group, user.household, defaultGroup ?? undefined);
    const flag = user.admin;
    const out = await this.calls.createUser({
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      password: user.password,
      admin: user.admin,
      canInvite: flag,
      canManage: flag,
      canManageHousehold: flag,
      canOrganize: flag,
      group: place.group.name,
      household: place.household.name,
    });
    return view(out);
  }

  /** A user by username, then e-mail (case-insensitive): Mealie's login lookup. */
  private async find(login: string): Promise<UserOut> {
    const wanted = login.trim().toLowerCase();
    const users = await this.calls.users();
    const user =
      users.find((u) => (u.username ?? "").toLowerCase() === wanted) ??
      users.find((u) => u.email.toLowerCase() === wanted);
    if (!user) throw new CliError(`No such user: ${login}`, EXIT.notFound);
    return user;
  }

  async setPassword(login: string, password: string): Promise<UserView> {
    const user = await this.find(login);
    await this.calls.setPassword(user, password);
    return view(user);
  }

  async unlock(login: string | null): Promise<{ unlocked: number }> {
    return this.calls.unlock(login === null ? null : (await this.find(login)).id);
  }

  async setAdmin(login: string, admin: boolean): Promise<UserView> {
    const user = await this.find(login);
    return view(
      await this.calls.updateUser(user.id, { email: user.email, admin, ...(admin ? ALL_FLAGS : {}) }),
    );
  }
}

function view(u: UserOut): UserView {
  return {
    id: u.id,
    username: u.username ?? "",
    fullName: u.fullName ?? "",
    email: u.email,
    admin: u.admin ?? false,
    group: u.group ?? "",
    household: u.household ?? "",
  };
}
