/** Users through a live server's Mealie API (see server-client.ts for how the CLI is let in). */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError, EXIT } from "../output.js";
import type { LiveServer } from "../context.js";
import { pickPlacement, type PlaceOption } from "./placement.js";
import { ServerClient } from "./server-client.js";
import type { NewUser, UserBackend, UserView } from "./types.js";

export { serverUrl } from "./server-client.js";

interface UserOut {
  id: string;
  username: string;
  fullName?: string | null;
  email: string;
  admin?: boolean;
  group?: string | null;
  household?: string | null;
}

export class ServerUsers implements UserBackend {
  readonly mode = "server" as const;
  private readonly client: ServerClient;

  constructor(
    lock: LiveServer,
    private dataDir: string,
  ) {
    this.client = new ServerClient(lock, dataDir);
  }

  private request<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.client.request<T>(method, path, body);
  }

  async list(): Promise<UserView[]> {
    const page = await this.request<{ items: UserOut[] }>("GET", "/api/admin/users?perPage=-1");
    return page.items.map(view);
  }

  async add(user: NewUser): Promise<UserView> {
    // Resolve slugs here (the API takes names) so an unknown group fails with the CLI's message and code.
    const site = await readJson<{ defaultGroup?: unknown }>(join(this.dataDir, "larder.json"));
    const defaultGroup = typeof site?.defaultGroup === "string" ? site.defaultGroup : undefined;
    const place = pickPlacement(
      await placeOptionsOnDisk(this.dataDir),
      user.group,
      user.household,
      defaultGroup,
    );
    const out = await this.request<UserOut>("POST", "/api/admin/users", {
      username: user.username,
      fullName: user.fullName,
      email: user.email,
      password: user.password,
      admin: user.admin,
      canInvite: user.admin,
      canManage: user.admin,
      canManageHousehold: user.admin,
      canOrganize: user.admin,
      group: place.group.name,
      household: place.household.name,
    });
    return view(out);
  }

  /** A user by username, then e-mail (case-insensitive), as the server lists them. */
  private async find(login: string): Promise<UserView> {
    const wanted = login.trim().toLowerCase();
    const users = await this.list();
    const user =
      users.find((u) => u.username.toLowerCase() === wanted) ??
      users.find((u) => u.email.toLowerCase() === wanted);
    if (!user) throw new CliError(`No such user: ${login}`, EXIT.notFound);
    return user;
  }

  async setPassword(login: string, password: string): Promise<UserView> {
    // Mealie's reset-token endpoint fails for an unknown e-mail, so find the user first.
    const user = await this.find(login);
    const { token } = await this.request<{ token: string }>("POST", "/api/admin/users/password-reset-token", {
      email: user.email,
    });
    await this.request("POST", "/api/users/reset-password", {
      token,
      email: user.email,
      password,
      passwordConfirm: password,
    });
    return user;
  }

  async unlock(login: string | null): Promise<{ unlocked: number }> {
    if (login === null)
      return this.request<{ unlocked: number }>("POST", "/api/admin/users/unlock?force=true");
    const user = await this.find(login);
    return this.request<{ unlocked: number }>(
      "POST",
      `/api/admin/users/${encodeURIComponent(user.id)}/unlock`,
    );
  }

  async setAdmin(login: string, admin: boolean): Promise<UserView> {
    const user = await this.find(login);
    const flags = admin
      ? { canInvite: true, canManage: true, canManageHousehold: true, canOrganize: true }
      : {};
    const out = await this.request<UserOut>("PUT", `/api/admin/users/${encodeURIComponent(user.id)}`, {
      email: user.email,
      admin,
      ...flags,
    });
    return view(out);
  }
}

function view(u: UserOut): UserView {
  return {
    id: u.id,
    username: u.username,
    fullName: u.fullName ?? "",
    email: u.email,
    admin: u.admin ?? false,
    group: u.group ?? "",
    household: u.household ?? "",
  };
}

/** Groups and households read from their JSON files: reading does not conflict with the server writing. */
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
