/**
 * Groups and households for `larder group …` and `larder household …`: through a live server's admin
 * API, or core directly under the folder's lock (ARCHITECTURE §2, one writer) — one implementation over
 * either (issue 12).
 */
import type { GroupInDb, HouseholdInDb } from "../../core/groups/group-admin.js";
import { withCalls, type CallsSource } from "../calls.js";
import { CliError, EXIT } from "../output.js";
import { localActor } from "./local.js";
import { ServerClient } from "./server-client.js";
import type { GroupView, HouseholdView, PlacesBackend } from "./types.js";

const matches = (want: string) => (o: { slug: string; name: string; id: string }) =>
  o.slug === want || o.id === want || o.name.toLowerCase() === want.trim().toLowerCase();

export function withPlaces<T>(dataDir: string, fn: (places: PlacesBackend) => Promise<T>): Promise<T> {
  return withCalls(dataDir, groupAdminCalls, (calls, mode) => fn(new Places(mode, calls)));
}

/**
 * The admin calls `larder group|household` makes, in Mealie's wire shapes: answered by core in this
 * process, or by the running server's admin API. Everything else is written once, in Places.
 */
interface GroupAdminCalls {
  groups(): Promise<GroupInDb[]>;
  createGroup(body: { name: string }): Promise<GroupInDb>;
  households(): Promise<HouseholdInDb[]>;
  createHousehold(body: { name: string; groupId?: string }): Promise<HouseholdInDb>;
}

const groupAdminCalls: CallsSource<GroupAdminCalls> = {
  recipes: "when-needed",
  local(larder) {
    const admin = larder.groupAdmin;
    return {
      groups: async () => admin.groups(localActor(larder)),
      createGroup: (body) => admin.createGroup(localActor(larder), body),
      households: async () => admin.households(localActor(larder)),
      createHousehold: (body) => admin.createHousehold(localActor(larder), body),
    };
  },
  server(lock, dataDir) {
    const client = new ServerClient(lock, dataDir);
    return {
      groups: async () =>
        (await client.request<{ items: GroupInDb[] }>("GET", "/api/admin/groups?perPage=-1")).items,
      createGroup: (body) => client.request<GroupInDb>("POST", "/api/admin/groups", body),
      households: async () =>
        (await client.request<{ items: HouseholdInDb[] }>("GET", "/api/admin/households?perPage=-1")).items,
      createHousehold: (body) => client.request<HouseholdInDb>("POST", "/api/admin/households", body),
    };
  },
};

class Places implements PlacesBackend {
  constructor(
    readonly mode: "local" | "server",
    private readonly admin: GroupAdminCalls,
  ) {}

  private groupView = (g: GroupInDb): GroupView => ({
    id: g.id,
    name: g.name,
    slug: g.slug,
    households: (g.households ?? []).map((h) => h.name),
    users: (g.users ?? []).length,
  });

  private householdView(h: HouseholdInDb, groups: GroupInDb[]): HouseholdView {
    return {
      id: h.id,
      name: h.name,
      slug: h.slug,
      group: h.group,
      groupSlug: groups.find((g) => g.id === h.groupId)?.slug ?? "",
      users: (h.users ?? []).length,
    };
  }

  private async group(want: string): Promise<GroupInDb> {
    const g = (await this.admin.groups()).find(matches(want));
    if (!g) throw new CliError(`No such group: ${want}`, EXIT.notFound);
    return g;
  }

  async listGroups(): Promise<GroupView[]> {
    return (await this.admin.groups()).map(this.groupView);
  }

  async addGroup(name: string): Promise<GroupView> {
    return this.groupView(await this.admin.createGroup({ name }));
  }

  async listHouseholds(group?: string): Promise<HouseholdView[]> {
    const groups = await this.admin.groups();
    const only = group ? await this.group(group) : null;
    return (await this.admin.households())
      .filter((h) => !only || h.groupId === only.id)
      .map((h) => this.householdView(h, groups));
  }

  async addHousehold(name: string, group?: string): Promise<HouseholdView> {
    const groupId = group ? (await this.group(group)).id : undefined;
    const made = await this.admin.createHousehold({ name, ...(groupId ? { groupId } : {}) });
    return this.householdView(made, await this.admin.groups());
  }
}
