/**
 * A household folder replaced by a symlink while the server runs (decision 0263): nothing is made or
 * written through it, and the API says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, readdir, rename, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;

beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

describe("a household folder replaced by a symlink", () => {
  it("gets no shopping-lists folder made through it: creating a list answers 409 and names the folder", async () => {
    const household = join(t.dataDir, "groups", "home", "households", "family");
    const outside = join(t.dataDir, "..", "outside");
    await mkdir(outside);
    try {
      await rename(household, join(t.dataDir, "..", "family-moved"));
      await symlink(outside, household);
      const res = await t.api("/api/households/shopping/lists", {
        method: "POST",
        token,
        json: { name: "Away" },
      });
      expect(await readdir(outside)).toEqual([]);
      expect(res.status).toBe(409);
      expect(JSON.stringify(await res.json())).toMatch(
        /groups\/home\/households\/family is not a folder of the data folder/,
      );
    } finally {
      await rm(household, { force: true });
      await rename(join(t.dataDir, "..", "family-moved"), household);
      await rm(outside, { recursive: true, force: true });
    }
  });
});
