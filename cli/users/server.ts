/**
 * Users through a live server's Mealie API. The server holds the folder (one writer), and accepts the
 * token it wrote into `.larder/lock` as its first admin, so only someone who can read `.larder/` can do this.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError, EXIT, type Issue } from "../output.js";
import type { LiveServer } from "../context.js";
import { pickPlacement, type PlaceOption } from "./placement.js";
import type { NewUser, UserBackend, UserView } from "./types.js";

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
  readonly baseUrl: string;

  constructor(
    private lock: LiveServer,
    private dataDir: string,
  ) {
    this.baseUrl = serverUrl(lock);
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

  async setPassword(login: string, password: string): Promise<UserView> {
    // The reset-token endpoint answers 500 for an unknown e-mail, so find the user first.
    const wanted = login.trim().toLowerCase();
    const users = await this.list();
    const user =
      users.find((u) => u.username.toLowerCase() === wanted) ??
      users.find((u) => u.email.toLowerCase() === wanted);
    if (!user) throw new CliError(`No such user: ${login}`, EXIT.notFound);
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

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${this.baseUrl}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.lock.token}`,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      throw new CliError(
        `A Larder server (pid ${this.lock.pid}) holds ${this.dataDir} but does not answer at ${this.baseUrl} (${cause})`,
        EXIT.failure,
      );
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: reported below with the status
    }
    if (res.ok) return json as T;
    throw httpError(res.status, json, text);
  }
}

/** The lock's host as something we can connect to: a wildcard bind means this machine. */
export function serverUrl(lock: Pick<LiveServer, "host" | "port">): string {
  let host = lock.host || "127.0.0.1";
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "::" || host === "[::]") host = "::1";
  if (host.includes(":") && !host.startsWith("[")) host = `[${host}]`;
  return `http://${host}:${lock.port}`;
}

/** Map Mealie's error shapes (mealie-api-notes §1) to the CLI's messages and exit codes. */
function httpError(status: number, json: unknown, text: string): CliError {
  const detail = (json as { detail?: unknown } | null)?.detail;
  if (status === 422 && Array.isArray(detail)) {
    const issues: Issue[] = detail.map((d: { loc?: unknown[]; msg?: string }) => ({
      field: String(d.loc?.[d.loc.length - 1] ?? ""),
      message: String(d.msg ?? "invalid"),
    }));
    return new CliError("Invalid input", EXIT.invalid, issues);
  }
  const message =
    typeof detail === "string"
      ? detail
      : typeof (detail as { message?: unknown } | undefined)?.message === "string"
        ? (detail as { message: string }).message
        : text.slice(0, 200) || `HTTP ${status}`;
  if (status === 409) return new CliError(message, EXIT.conflict);
  if (status === 404) return new CliError(message, EXIT.notFound);
  if (status === 400 || status === 422) return new CliError(message, EXIT.invalid);
  if (status === 401 || status === 403) {
    return new CliError(`The server refused the lock token (${status} ${message})`, EXIT.failure);
  }
  return new CliError(`The server answered ${status}: ${message}`, EXIT.failure);
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
