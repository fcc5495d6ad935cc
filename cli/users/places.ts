/**
 * Groups and households for `larder group …` and `larder household …`: through a live server's admin
 * API, or core directly under the folder's lock (ARCHITECTURE §2, one writer).
 */
import type { Larder } from "../../core/larder.js";
import type { GroupData, HouseholdData } from "../../core/groups/registry.js";
import {
  configFor,
  liveServer,
  requireDataFolder,
  withLarder,
  withLock,
  type LiveServer,
} from "../context.js";
import { CliError, EXIT } from "../output.js";
import { localActor } from "./local.js";
import { ServerClient } from "./server-client.js";
import type { GroupView, HouseholdView, PlacesBackend } from "./types.js";

const matches = (want: string) => (o: { slug: string; name: string; id: string }) =>
  o.slug === want || o.id === want || o.name.toLowerCase() === want.trim().toLowerCase();

export async function withPlaces<T>(dataDir: string, fn: (places: PlacesBackend) => Promise<T>): Promise<T> {
  requireDataFolder(dataDir);
  const server = await liveServer(dataDir);
  if (server) return fn(new ServerPlaces(server, dataDir));
  return withLock(dataDir, () => withLarder(configFor(dataDir), (larder) => fn(new LocalPlaces(larder))));
}

class LocalPlaces implements PlacesBackend {
  readonly mode = "local" as const;

  constructor(private readonly larder: Larder) {}

  private groupView(g: GroupData): GroupView {
    const d = g.doc.data;
    return {
      id: d.id,
      name: d.name,
      slug: g.slug,
      households: [...g.households.values()].map((h) => h.doc.data.name),
      users: this.larder.users.inGroup(d.id).length,
    };
  }

  private householdView(g: GroupData, h: HouseholdData): HouseholdView {
    const d = h.doc.data;
    return {
      id: d.id,
      name: d.name,
      slug: h.slug,
      group: g.doc.data.name,
      groupSlug: g.slug,
      users: this.larder.users.inHousehold(d.id).length,
    };
  }

  private group(want: string): GroupData {
    const g = this.larder.groups
      .all()
      .find((x) => matches(want)({ slug: x.slug, name: x.doc.data.name, id: x.doc.data.id }));
    if (!g) throw new CliError(`No such group: ${want}`, EXIT.notFound);
    return g;
  }

  async listGroups(): Promise<GroupView[]> {
    return this.larder.groupAdmin.groups(localActor(this.larder)).map((g) => this.groupView(g));
  }

  async addGroup(name: string): Promise<GroupView> {
    return this.groupView(await this.larder.groupAdmin.createGroup(localActor(this.larder), { name }));
  }

  async listHouseholds(group?: string): Promise<HouseholdView[]> {
    const only = group ? this.group(group) : null;
    return this.larder.groupAdmin
      .households(localActor(this.larder))
      .filter((f) => !only || f.group === only)
      .map((f) => this.householdView(f.group, f.household));
  }

  async addHousehold(name: string, group?: string): Promise<HouseholdView> {
    const groupId = group ? this.group(group).doc.data.id : undefined;
    const made = await this.larder.groupAdmin.createHousehold(localActor(this.larder), { name, groupId });
    return this.householdView(made.group, made.household);
  }
}

interface GroupInDb {
  id: string;
  name: string;
  slug: string;
  households?: { id: string; name: string }[] | null;
  users?: unknown[] | null;
}
interface HouseholdInDb {
  id: string;
  name: string;
  slug: string;
  groupId: string;
  group: string;
  users?: unknown[] | null;
}

class ServerPlaces implements PlacesBackend {
  readonly mode = "server" as const;
  private readonly client: ServerClient;

  constructor(lock: LiveServer, dataDir: string) {
    this.client = new ServerClient(lock, dataDir);
  }

  private groupView = (g: GroupInDb): GroupView => ({
    id: g.id,
    name: g.name,
    slug: g.slug,
    households: (g.households ?? []).map((h) => h.name),
    users: (g.users ?? []).length,
  });

  private async groups(): Promise<GroupInDb[]> {
    return (await this.client.request<{ items: GroupInDb[] }>("GET", "/api/admin/groups?perPage=-1")).items;
  }

  private async group(want: string): Promise<GroupInDb> {
    const g = (await this.groups()).find(matches(want));
    if (!g) throw new CliError(`No such group: ${want}`, EXIT.notFound);
    return g;
  }

  async listGroups(): Promise<GroupView[]> {
    return (await this.groups()).map(this.groupView);
  }

  async addGroup(name: string): Promise<GroupView> {
    return this.groupView(await this.client.request<GroupInDb>("POST", "/api/admin/groups", { name }));
  }

  async listHouseholds(group?: string): Promise<HouseholdView[]> {
    const groups = await this.groups();
    const only = group ? await this.group(group) : null;
    const items = (
      await this.client.request<{ items: HouseholdInDb[] }>("GET", "/api/admin/households?perPage=-1")
    ).items;
    return items.filter((h) => !only || h.groupId === only.id).map((h) => this.householdView(h, groups));
  }

  async addHousehold(name: string, group?: string): Promise<HouseholdView> {
    const groupId = group ? (await this.group(group)).id : undefined;
    const made = await this.client.request<HouseholdInDb>("POST", "/api/admin/households", {
      name,
      ...(groupId ? { groupId } : {}),
    });
    return this.householdView(made, await this.groups());
  }

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
}
