import { afterAll, beforeAll, expect, it } from "vitest";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import { addMember, openScratchLarder, type ScratchLarder } from "../testing/scratch-larder.js";

// A recipe file names its owner by id; a start keeps an owner who is a member of the file's group
// and treats any other id as no owner, with a problem saying so.

let scratch: ScratchLarder;
let homeAdmin: string;
let clubMember: string;

beforeAll(async () => {
  scratch = await openScratchLarder("file-owners");
  const { larder } = scratch;
  homeAdmin = scratch.admin.user.id;
  const club = await larder.groups.createGroup("Club");
  const member = await addMember(larder, club, "member");
  clubMember = member.id;
  await larder.close();
  const recipes = join(scratch.base, "data", "groups", "home", "recipes");
  await writeFile(join(recipes, "ours.md"), `---\nname: Ours\nowner: ${homeAdmin}\n---\n`);
  await writeFile(join(recipes, "theirs.md"), `---\nname: Theirs\nowner: ${clubMember}\n---\n`);
  scratch.larder = await Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { bcryptRounds: 4, dataDir: join(scratch.base, "data") }),
    { log: consoleLogger("silent") },
  );
});

afterAll(async () => {
  await scratch?.close();
});

it("keeps a file's owner who belongs to the group and drops one from another group, saying why", () => {
  const { larder } = scratch;
  const admin = { kind: "user" as const, user: larder.users.byId(homeAdmin)! };
  expect(larder.recipes.get(admin, "ours").userId).toBe(homeAdmin);
  expect(larder.recipes.get(admin, "theirs").userId).not.toBe(clubMember);
  expect(larder.recipes.store.problems()).toEqual([
    expect.objectContaining({ slug: "theirs", kind: "foreign-owner" }),
  ]);
});
