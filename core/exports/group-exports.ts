/**
 * Bulk recipe exports of a group (mealie-api-notes §4.6): zips prepared on request, listed for a day,
 * downloaded through a file token, purged on request. They live in `.larder/exports/<group>/` (per
 * machine, never in git) with a small index beside them; an expired one is removed when the list is
 * next read.
 */
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { JsonDoc } from "../storage/json-doc.js";
import { assertSlug } from "../storage/data-folder.js";
import { GroupExportsDoc, type GroupExportRecord } from "../schemas/exports.js";
import { newId, isUuid } from "../util/ids.js";
import { realDirInside } from "../media/safe-path.js";
import type { FileTokens } from "./file-tokens.js";
import { writeRecipesZip } from "./recipe-zip.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "images" | "log" | "recipes">;

const EXPORT_LIFETIME_MS = 24 * 3600 * 1000;

/** The contract's GroupDataExport. */
export interface GroupDataExport {
  id: string;
  groupId: string;
  name: string;
  filename: string;
  path: string;
  size: string;
  expires: string;
}

export function presentExport(r: GroupExportRecord): GroupDataExport {
  return {
    id: r.id,
    groupId: r.groupId,
    name: r.name,
    filename: r.filename,
    path: r.path,
    size: prettySize(r.size),
    expires: r.expires,
  };
}

/** Mealie's human size: "512 bytes", "1.5 KB", "2.25 MB". */
export function prettySize(bytes: number): string {
  const units = ["KB", "MB", "GB", "TB"];
  if (bytes < 1024) return `${bytes} bytes`;
  let v = bytes;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v * 100) / 100} ${units[i]}`;
}

export class GroupExports {
  private docs = new Map<string, Promise<JsonDoc<GroupExportsDoc>>>();

  constructor(
    private larder: Deps,
    private tokens: FileTokens,
  ) {}

  private relDir(groupSlug: string): string {
    return `.larder/exports/${assertSlug(groupSlug, "group slug")}`;
  }

  private async dir(groupSlug: string): Promise<string> {
    return realDirInside(
      this.larder.folder.root,
      path.join(this.larder.folder.root, ...this.relDir(groupSlug).split("/")),
      true,
    );
  }

  private doc(groupSlug: string): Promise<JsonDoc<GroupExportsDoc>> {
    let d = this.docs.get(groupSlug);
    if (!d) {
      d = this.dir(groupSlug).then((dir) =>
        JsonDoc.open(path.join(dir, "exports.json"), {
          schema: GroupExportsDoc,
          tmpDir: this.larder.folder.tmpDir,
          defaults: () => GroupExportsDoc.parse({}),
          mode: 0o600,
        }),
      );
      d.catch(() => this.docs.delete(groupSlug));
      this.docs.set(groupSlug, d);
    }
    return d;
  }

  /** Zip the recipes into a new export of the group. */
  async create(group: GroupData, entries: RecipeEntry[]): Promise<GroupExportRecord> {
    const id = newId();
    const filename = `${id}.zip`;
    const dir = await this.dir(group.slug);
    const size = await writeRecipesZip(this.larder, entries, path.join(dir, filename));
    const now = new Date();
    const rec: GroupExportRecord = {
      id,
      groupId: group.doc.data.id,
      name: "Data Export",
      filename,
      path: `${this.relDir(group.slug)}/${filename}`,
      size,
      createdAt: now.toISOString(),
      expires: new Date(now.getTime() + EXPORT_LIFETIME_MS).toISOString(),
    };
    const doc = await this.doc(group.slug);
    await doc.update((d) => {
      d.exports.push(rec);
    });
    return rec;
  }

  /** The group's exports, newest first; expired ones are deleted on the way. */
  async list(group: GroupData): Promise<GroupExportRecord[]> {
    const doc = await this.doc(group.slug);
    const now = Date.now();
    const expired = doc.data.exports.filter((e) => Date.parse(e.expires) <= now);
    if (expired.length) await this.drop(group, expired);
    return [...doc.data.exports].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * A file token for one of the group's exports, named by id or by the `path` the list gave. A path
   * that leaves the data folder is a 400; anything that is not this group's export is a 404.
   */
  async downloadToken(group: GroupData, idOrPath: string): Promise<{ fileToken: string }> {
    const wanted = this.normalise(idOrPath);
    const rec = (await this.list(group)).find((e) => e.id === wanted || e.path === wanted);
    if (!rec) throw new NotFoundError("Not found.");
    return { fileToken: await this.tokens.signFile(rec.path) };
  }

  private normalise(idOrPath: string): string {
    if (typeof idOrPath !== "string" || !idOrPath || idOrPath.includes("\0"))
      throw new BadRequestError("Invalid path");
    if (isUuid(String(idOrPath))) return idOrPath.toLowerCase();
    const root = this.larder.folder.root;
    const abs = path.resolve(root, idOrPath);
    const rel = path.relative(root, abs);
    if (
      rel === "" ||
      rel.startsWith("..") ||
      path.isAbsolute(rel) ||
      idOrPath.includes("\\") ||
      idOrPath.split("/").includes("..")
    ) {
      throw new BadRequestError("Invalid path");
    }
    return rel.split(path.sep).join("/");
  }

  /** DELETE …/export/purge: every export of the group; returns how many. */
  async purge(group: GroupData): Promise<number> {
    const doc = await this.doc(group.slug);
    const all = [...doc.data.exports];
    await this.drop(group, all);
    // Zips left behind by a crash between writing and indexing go too.
    const dir = await this.dir(group.slug);
    const known = new Set(doc.data.exports.map((e) => e.filename));
    for (const name of await readdir(dir))
      if (name.endsWith(".zip") && !known.has(name)) await rm(path.join(dir, name), { force: true });
    return all.length;
  }

  private async drop(group: GroupData, recs: GroupExportRecord[]): Promise<void> {
    const dir = await this.dir(group.slug);
    const ids = new Set(recs.map((r) => r.id));
    for (const r of recs)
      if (/^[0-9a-f-]+\.zip$/i.test(r.filename)) await rm(path.join(dir, r.filename), { force: true });
    const doc = await this.doc(group.slug);
    await doc.update((d) => {
      d.exports = d.exports.filter((e) => !ids.has(e.id));
    });
  }
}
