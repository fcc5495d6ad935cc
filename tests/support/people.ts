/** Factories for people in end-to-end tests: users with chosen flags, groups, households, sign-ins. */
import type { TestServer } from "./server.js";
import type { GroupData, HouseholdData } from "../../core/groups/registry.js";
import type { UserRecord } from "../../core/schemas/records.js";

export const PASSWORD = "Correct-Horse-7";

export type Flags = Partial<
  Pick<UserRecord, "admin" | "advanced" | "canInvite" | "canManage" | "canManageHousehold" | "canOrganize">
>;

export interface Person {
  user: UserRecord;
  token: string;
}

let counter = 0;

/** A group made through core (with its household "Family"), for a second tenant. */
export async function makeGroup(t: TestServer, name: string): Promise<GroupData> {
  return t.larder.groups.createGroup(name, "Family");
}

/** A further household in a group. */
export async function makeHousehold(t: TestServer, group: GroupData, name: string): Promise<HouseholdData> {
  return t.larder.groups.createHousehold(group, name);
}

/** The first admin's group and household ("Home" / "Family"). */
export function home(t: TestServer): { group: GroupData; household: HouseholdData } {
  const group = t.larder.groups.bySlugOrNull("home");
  const household = group?.households.get("family");
  if (!group || !household) throw new Error("no Home/Family");
  return { group, household };
}

/** A user with a password and a session: no flags unless given; placed in Home/Family by default. */
export async function makeUser(
  t: TestServer,
  flags: Flags = {},
  where: { group?: GroupData; household?: HouseholdData; username?: string } = {},
): Promise<Person> {
  const group = where.group ?? home(t).group;
  const household = where.household ?? t.larder.groups.defaultHousehold(group);
  if (!household) throw new Error(`group ${group.slug} has no household`);
  const username = where.username ?? `user${++counter}-${Math.random().toString(36).slice(2, 7)}`;
  const user = await t.larder.users.create(
    {
      username,
      email: `${username}@example.com`,
      fullName: `Person ${username}`,
      admin: false,
      advanced: false,
      canInvite: false,
      canManage: false,
      canManageHousehold: false,
      canOrganize: false,
      ...flags,
    },
    { groupId: group.doc.data.id, householdId: household.doc.data.id },
  );
  await t.larder.auth.setPassword(user.id, PASSWORD);
  return { user, token: await t.login(username, PASSWORD) };
}

/** JSON of a response, with its status in the error when it is not JSON. */
export async function body<T = Record<string, unknown>>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}

/** Form login as Mealie clients send it. */
export function loginForm(username: string, password: string): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  };
}
