/**
 * The calls `larder user …` makes, in Mealie's wire shapes (`UserOut`, the admin user bodies): answered
 * by core in this process or by the running server's admin API (cli/calls.ts). What the commands decide
 * — which user a login names, where a new user goes, the messages — is written once, in users.ts.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
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
  /** Where a new user may go: every group with its households, and the site's default group (slug or name). */
  places(): Promise<{ groups: PlaceOption[]; defaultGroup: string | null }>;
  createUser(body: UserIn): Promise<UserOut>;
  updateUser(id: string, body: UserPatch): Promise<UserOut>;
  /** A new password for the user; their sessions end. */
  setPassword(user: UserOut, password: string): Promise<void>;
  /** Clear one user's lockout, or (id null) every lockout. */
  unlock(id: string | null): Promise<{ unlocked: number }>;
}

export const userAdminCalls: CallsSource<UserAdminCalls> = {
  // None of these calls reads a recipe: none deletes a user or moves one to another household, the
  // changes that rewrite recipes. Were one to read them, the store would refuse (decision 0202).
  recipes: "when-needed",
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
      // Read from the folder's JSON files, which does not conflict with the server writing: adding a
      // user is then one request.
      places: async () => ({
        groups: await placeOptionsOnDisk(dataDir),
        defaultGroup: await defaultGroupOnDisk(dataDir),
      }),
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

/** The groups and households of the folder, from their JSON files (a running server holds the folder). */
async function placeOptionsOnDisk(dataDir: string): Promise<PlaceOption[]> {
  const out: PlaceOption[] = [];
  const groupsDir = join(dataDir, "groups");
  for (const slug of await dirs(groupsDir)) {
    const group = await readName(join(groupsDir, slug, "group.json"));
    if (!group) continue;
    const households: PlaceOption["households"] = [];
    for (const h of await dirs(join(groupsDir, slug, "households"))) {
      const name = await readName(join(groupsDir, slug, "households", h, "household.json"));
      if (name) households.push({ slug: h, name });
    }
    out.push({ slug, name: group, households });
  }
  return out;
}

async function defaultGroupOnDisk(dataDir: string): Promise<string | null> {
  const site = await readJson<{ defaultGroup?: unknown }>(join(dataDir, "larder.json"));
  return typeof site?.defaultGroup === "string" ? site.defaultGroup : null;
}

async function dirs(path: string): Promise<string[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch {
    return null;
  }
}

async function readName(file: string): Promise<string | null> {
  const name = (await readJson<{ name?: unknown }>(file))?.name;
  return typeof name === "string" ? name : null;
}
