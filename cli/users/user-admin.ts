/**
 * The calls `larder user …` makes, in Mealie's wire shapes (`UserOut`, the admin user bodies): answered
 * by core in this process or by the running server's admin API (cli/calls.ts). What the commands decide
 * — which user a login names, where a new user goes, the messages — is written once, in users.ts.
 */
import type { Wire } from "../../core/wire/index.js";
import type { CallsSource } from "../calls.js";
import { CliError, EXIT } from "../output.js";
import { localActor } from "./local.js";
import type { PlaceOption } from "./placement.js";
import { ServerClient } from "./server-client.js";

export type UserOut = Wire<"UserOut">;

/** POST /admin/users: the group and household by name, as Mealie's admin form sends them. */
export interface UserIn {
  username: string;
  fullName: string;
  email: string;
  password: string;
  admin: boolean;
  canInvite: boolean;
  canManage: boolean;
  canManageHousehold: boolean;
  canOrganize: boolean;
  group: string;
  household: string;
}

/** PUT /admin/users/{id}: what `larder user promote|demote` changes. */
export interface UserPatch {
  email: string;
  admin: boolean;
  canInvite?: boolean;
  canManage?: boolean;
  canManageHousehold?: boolean;
  canOrganize?: boolean;
}

export interface UserAdminCalls {
  /** GET /admin/users: everyone. */
  users(): Promise<UserOut[]>;
  /** Where a new user may go: every group with its households, and the site's default group (its name). */
  places(): Promise<{ groups: PlaceOption[]; defaultGroup: string | null }>;
  createUser(body: UserIn): Promise<UserOut>;
  updateUser(id: string, body: UserPatch): Promise<UserOut>;
  /** A new password for the user; their sessions end. */
  setPassword(user: UserOut, password: string): Promise<void>;
  /** Clear one user's lockout, or (id null) every lockout. */
  unlock(id: string | null): Promise<{ unlocked: number }>;
}

export const userAdminCalls: CallsSource<UserAdminCalls> = {
  local(larder) {
    const out = (id: string) => {
      const u = larder.users.byId(id);
      if (!u) throw new CliError(`No such user: ${id}`, EXIT.notFound);
      return larder.directory.userOut(u, false);
    };
    return {
      users: async () => larder.users.all().map((u) => larder.directory.userOut(u, false)),
      places: async () => ({
        groups: larder.directory.all().map(({ group, households }) => ({
          slug: group.slug,
          name: group.name,
          households: households.map((h) => ({ slug: h.slug, name: h.name })),
        })),
        defaultGroup: larder.directory.defaultGroup()?.group.name ?? null,
      }),
      // Straight to the folder's users, not the admin route: `user add --admin` is how a folder that
      // has lost its last administrator gets one back, and the admin route needs one to act.
      async createUser(body) {
        const group = larder.directory.groupByRef(body.group);
        const household = group
          ? larder.directory.householdsOf(group.id).find((h) => h.name === body.household)
          : undefined;
        if (!group || !household) throw new CliError(`No such group: ${body.group}`, EXIT.notFound);
        const { password, group: _g, household: _h, ...profile } = body;
        const created = await larder.users.create(
          { ...profile, advanced: false },
          { groupId: group.id, householdId: household.id },
        );
        await larder.auth.setPassword(created.id, password);
        return out(created.id);
      },
      updateUser: async (id, body) =>
        larder.directory.userOut(await larder.accounts.update(localActor(larder), id, body), false),
      // changePassword, not setPassword: a password change ends the user's sessions (ARCHITECTURE §5).
      setPassword: (user, password) => larder.auth.changePassword(user.id, password),
      unlock: async (id) => ({
        unlocked:
          id === null
            ? await larder.accounts.unlock(localActor(larder), true)
            : await larder.accounts.unlockOne(localActor(larder), id),
      }),
    };
  },
  server(lock, dataDir) {
    const client = new ServerClient(lock, dataDir);
    return {
      users: async () =>
        (await client.request<{ items: UserOut[] }>("GET", "/api/admin/users?perPage=-1")).items,
      async places() {
        const [groups, households, about] = await Promise.all([
          client.request<{ items: Wire<"GroupInDB">[] }>("GET", "/api/admin/groups?perPage=-1"),
          client.request<{ items: Wire<"HouseholdInDB">[] }>("GET", "/api/admin/households?perPage=-1"),
          client.request<{ defaultGroup?: string }>("GET", "/api/admin/about"),
        ]);
        return {
          groups: groups.items.map((g) => ({
            slug: g.slug,
            name: g.name,
            households: households.items
              .filter((h) => h.groupId === g.id)
              .map((h) => ({ slug: h.slug, name: h.name })),
          })),
          defaultGroup: about.defaultGroup || null,
        };
      },
      createUser: (body) => client.request<UserOut>("POST", "/api/admin/users", body),
      updateUser: (id, body) =>
        client.request<UserOut>("PUT", `/api/admin/users/${encodeURIComponent(id)}`, body),
      // The admin's reset token, then Mealie's reset: the same path a forgotten password takes.
      async setPassword(user, password) {
        const { token } = await client.request<{ token: string }>(
          "POST",
          "/api/admin/users/password-reset-token",
          { email: user.email },
        );
        await client.request("POST", "/api/users/reset-password", {
          token,
          email: user.email,
          password,
          passwordConfirm: password,
        });
      },
      unlock: (id) =>
        client.request<{ unlocked: number }>(
          "POST",
          id === null
            ? "/api/admin/users/unlock?force=true"
            : `/api/admin/users/${encodeURIComponent(id)}/unlock`,
        ),
    };
  },
};
