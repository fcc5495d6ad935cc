import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { newRecipe } from "../support/members.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

const valid = async (path: string) => {
  const res = await t.api(`/api/validators${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { valid: boolean }).valid;
};

describe("validators (public)", () => {
  it("user names and e-mails: taken (any case) → false, fresh → true", async () => {
    expect(await valid("/user/name?name=admin")).toBe(false);
    expect(await valid("/user/name?name=ADMIN")).toBe(false);
    expect(await valid("/user/name?name=nobody-here")).toBe(true);
    expect(await valid("/user/email?email=ChangeMe@example.com")).toBe(false);
    expect(await valid("/user/email?email=fresh@example.com")).toBe(true);
  });

  it("groups and households by name", async () => {
    expect(await valid("/group?name=Home")).toBe(false);
    expect(await valid("/group?name=home")).toBe(false);
    expect(await valid("/group?name=Brand New Group")).toBe(true);
    expect(await valid("/household?name=Family")).toBe(false);
    expect(await valid("/household?name=Elsewhere")).toBe(true);
  });

  it("recipes by group id and name (its slug)", async () => {
    await newRecipe(t, token, "Validated Vindaloo");
    const groupId = ((await (await t.api("/api/groups/self", { token })).json()) as { id: string }).id;
    expect(
      await valid(`/recipe?group_id=${groupId}&name=${encodeURIComponent("Validated  VINDALOO!")}`),
    ).toBe(false);
    expect(await valid(`/recipe?group_id=${groupId}&name=Something Else`)).toBe(true);
    expect(await valid(`/recipe?group_id=3f0c2a8e-6a51-4c1e-9d6b-2f4f3c1a9e10&name=Validated Vindaloo`)).toBe(
      true,
    );
  });

  it("answers 422 when the value is missing", async () => {
    for (const path of ["/user/name", "/user/email", "/group", "/household", "/recipe?name=x"]) {
      expect((await t.api(`/api/validators${path}`)).status).toBe(422);
    }
  });
});
