/** Test factories for the recipe-domain tests: members of other households and groups, made through core, and recipes. */
import type { TestServer } from "./server.js";
import type { GroupData, HouseholdData } from "../../core/groups/registry.js";
import type { UserRecord } from "../../core/schemas/records.js";

export interface Member {
  user: UserRecord;
  token: string;
  group: GroupData;
  household: HouseholdData;
}

let n = 0;
const PASSWORD = "Sesame-Street-42";

/** A user in the given group and household (default: the admin's Home/Family), signed in. */
export async function addMember(
  t: TestServer,
  opts: { group?: GroupData; household?: HouseholdData; admin?: boolean; name?: string } = {},
): Promise<Member> {
  const group = opts.group ?? t.larder.groups.bySlugOrNull("home")!;
  const household = opts.household ?? [...group.households.values()][0];
  const username = opts.name ?? `member${++n}x${Date.now() % 100000}`;
  const user = await t.larder.users.create(
    {
      username,
      fullName: `Member ${username}`,
      email: `${username}@example.com`,
      admin: opts.admin ?? false,
      advanced: false,
      canInvite: false,
      canManage: false,
      canManageHousehold: false,
      canOrganize: false,
    },
    { groupId: group.doc.data.id, householdId: household.doc.data.id },
  );
  await t.larder.auth.setPassword(user.id, PASSWORD);
  return { user, token: await t.login(username, PASSWORD), group, household };
}

/** A further household in the admin's group, with one member. */
export async function secondHousehold(t: TestServer, name = "Second"): Promise<Member> {
  const group = t.larder.groups.bySlugOrNull("home")!;
  const household = await t.larder.groups.createHousehold(group, name);
  return addMember(t, { group, household });
}

/** Another group with one member. */
export async function otherGroup(t: TestServer, name = "Other"): Promise<Member> {
  const group = await t.larder.groups.createGroup(name);
  return addMember(t, { group });
}

/** Create a recipe over the API (then PATCH `extra` into it); returns its slug and id. */
export async function newRecipe(
  t: TestServer,
  token: string,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{ slug: string; id: string }> {
  const res = await t.api("/api/recipes", { method: "POST", token, json: { name } });
  if (res.status !== 201) throw new Error(`create recipe: ${res.status} ${await res.text()}`);
  const slug = (await res.json()) as string;
  if (Object.keys(extra).length) {
    const patch = await t.api(`/api/recipes/${slug}`, { method: "PATCH", token, json: extra });
    if (patch.status !== 200) throw new Error(`patch recipe: ${patch.status} ${await patch.text()}`);
  }
  const r = (await (await t.api(`/api/recipes/${slug}`, { token })).json()) as { id: string; slug: string };
  return { slug: r.slug, id: r.id };
}
