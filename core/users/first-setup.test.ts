import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";

let base: string;
let larder: Larder;

async function open(config: Record<string, unknown> = {}, opts: { seed?: boolean } = {}): Promise<Larder> {
  return Larder.open(
    loadConfig({} as NodeJS.ProcessEnv, { dataDir: join(base, "data"), bcryptRounds: 4, ...config }),
    { log: consoleLogger("silent"), ...opts },
  );
}

const body = {
  fullName: "Ada Admin",
  username: "ada",
  email: "Ada@Example.com",
  password: "Ada-Strong-Password-1",
  passwordConfirm: "Ada-Strong-Password-1",
  group: "Lovelace Kitchen",
  household: "Main House",
  locale: "de-DE",
  seedData: true,
};

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-setup-"));
});
afterEach(async () => {
  await larder?.close();
  await rm(base, { recursive: true, force: true });
});

describe("first-time setup", () => {
  it("is open on a fresh folder and shows what it starts from", async () => {
    larder = await open();
    const state = await larder.setup.state();
    expect(state.needed).toBe(true);
    expect(state.current).toMatchObject({ username: "admin", group: "Home", household: "Family" });
    expect(state.current?.foods).toBeGreaterThan(0);
  });

  it("turns the first-start account into the admin's own, names the group and household, and closes", async () => {
    larder = await open();
    const { user } = await larder.setup.complete(body);
    expect(user).toMatchObject({ username: "ada", fullName: "Ada Admin", admin: true });
    expect(larder.groups.byId(user.groupId)?.doc.data.name).toBe("Lovelace Kitchen");
    expect(larder.groups.household(user.groupId, user.householdId)?.doc.data.name).toBe("Main House");
    expect(await larder.auth.isFirstLogin()).toBe(false);
    await expect(larder.auth.login("ada", body.password)).resolves.toHaveProperty("token");
    await expect(larder.auth.login("admin", "MyPassword")).rejects.toThrow();
    expect((await larder.setup.state()).needed).toBe(false);
    await expect(larder.setup.complete(body)).rejects.toMatchObject({ status: 403 });
  });

  it("checks the form as spec §5 says and changes nothing on a mistake", async () => {
    larder = await open();
    await expect(
      larder.setup.complete({ ...body, email: "nope", password: "short", passwordConfirm: "other" }),
    ).rejects.toMatchObject({ name: "ZodError" });
    expect(await larder.setup.needed()).toBe(true);
    expect(larder.users.all()[0].username).toBe("admin");
  });

  it("refuses a username another account has", async () => {
    larder = await open();
    const admin = larder.users.all()[0];
    await larder.users.create(
      {
        username: "ada",
        email: "someone@example.com",
        fullName: "Someone",
        admin: false,
        advanced: false,
        canInvite: false,
        canManage: false,
        canManageHousehold: false,
        canOrganize: false,
      },
      { groupId: admin.groupId, householdId: admin.householdId },
    );
    await expect(larder.setup.complete(body)).rejects.toMatchObject({ status: 409 });
    expect(await larder.setup.needed()).toBe(true);
  });

  it("seeds an empty vocabulary in the chosen language, and keeps one that is there", async () => {
    larder = await open({}, { seed: false });
    const { user, seeded } = await larder.setup.complete(body);
    expect(seeded).toBe(true);
    const foods = larder.groups.byId(user.groupId)?.foods.data.foods ?? [];
    expect(foods.length).toBeGreaterThan(0);
    await larder.close();
    await rm(join(base, "data"), { recursive: true, force: true });
    larder = await open();
    const before = larder.groups.all()[0].foods.data.foods.length;
    expect((await larder.setup.complete(body)).seeded).toBe(false);
    expect(larder.groups.all()[0].foods.data.foods.length).toBe(before);
  });

  it("is never offered in demo mode, nor once skipped", async () => {
    larder = await open({ demo: true });
    expect(await larder.setup.needed()).toBe(false);
    await larder.close();
    larder = await open();
    larder.setup.skip();
    expect(await larder.setup.needed()).toBe(false);
  });
});
