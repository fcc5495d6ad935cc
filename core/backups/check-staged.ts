/**
 * A staged backup checked before it replaces the live tree: every JSON document parses, the site and
 * users documents have their shapes, and someone can administer the restored site. Restoring a backup
 * whose users.json is damaged (or that holds no users) would leave a folder the server cannot open, or
 * one whose first visitor gets the first-time setup; the live data must stay instead.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { BadRequestError } from "../errors.js";
import { GroupRecord, SiteDoc, UsersDoc } from "../schemas/records.js";

async function jsonFiles(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) await jsonFiles(abs, out);
    else if (e.isFile() && e.name.endsWith(".json")) out.push(abs);
  }
  return out;
}

const refuse = (why: string) =>
  new BadRequestError(`This backup cannot be restored: ${why}. Nothing was changed.`);

export async function checkStaged(staging: string): Promise<void> {
  const parsed = new Map<string, unknown>();
  for (const file of await jsonFiles(staging)) {
    const rel = relative(staging, file).split("\\").join("/");
    try {
      parsed.set(rel, JSON.parse(await readFile(file, "utf8")));
    } catch (e) {
      throw refuse(`${rel} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const site = parsed.get("larder.json");
  if (site !== undefined && !SiteDoc.safeParse(site).success)
    throw refuse("larder.json does not have the shape of Larder's site document");
  const users = parsed.get("users.json");
  if (users === undefined) throw refuse("it holds no users.json, so nobody could sign in afterwards");
  const u = UsersDoc.safeParse(users);
  if (!u.success) throw refuse("users.json does not have the shape of Larder's users document");
  if (!u.data.users.some((x) => x.admin))
    throw refuse("it holds no administrator, so nobody could manage the restored site");
  let groups = 0;
  for (const [rel, value] of parsed) {
    if (!/^groups\/[^/]+\/group\.json$/.test(rel)) continue;
    if (!GroupRecord.safeParse(value).success) throw refuse(`${rel} does not have the shape of a group`);
    groups++;
  }
  if (groups === 0) throw refuse("it holds no group");
}
