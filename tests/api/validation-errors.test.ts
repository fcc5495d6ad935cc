/**
 * Mealie's clients read FastAPI's 422s: Pydantic's `type` and `msg` wording, and a 422 (not a 404) for a
 * path parameter that cannot be the UUID or integer the contract declares.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(async () => t?.close());

type Detail = { detail: Array<{ type: string; loc: (string | number)[]; msg: string }> };

describe("422 answers in FastAPI's shape and wording", () => {
  it("refuses recipeServings: null with float_type, as Mealie's schema (a number, never null) does", async () => {
    const created = await t.api("/api/recipes", { method: "POST", token, json: { name: "Null Servings" } });
    const slug = (await created.json()) as string;
    const res = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { recipeServings: null },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as Detail;
    if (hasContract) assertContract("HTTPValidationError", body);
    expect(body.detail).toEqual([
      expect.objectContaining({
        type: "float_type",
        loc: ["body", "recipeServings"],
        msg: "Input should be a valid number",
      }),
    ]);
  });

  it("answers a non-UUID id where the contract says UUID with 422 naming the parameter", async () => {
    const res = await t.api("/api/foods/not-a-uuid", { token });
    expect(res.status).toBe(422);
    const body = (await res.json()) as Detail;
    if (hasContract) assertContract("HTTPValidationError", body);
    expect(body.detail).toEqual([
      expect.objectContaining({ type: "uuid_parsing", loc: ["path", "item_id"] }),
    ]);
    // A well-formed id that names nothing is still a 404.
    expect((await t.api("/api/foods/00000000-0000-4000-8000-000000000000", { token })).status).toBe(404);
  });

  it("answers a non-integer where the contract says integer with int_parsing", async () => {
    const res = await t.api("/api/users/api-tokens/abc", { method: "DELETE", token });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Detail).detail[0]).toMatchObject({
      type: "int_parsing",
      loc: ["path", "token_id"],
    });
  });

  it("answers a string for an integer in a body with int_parsing, as Pydantic does, not float_parsing", async () => {
    const res = await t.api("/api/households/cookbooks", {
      method: "POST",
      token,
      json: { name: "Weeknights", position: "first" },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Detail).detail).toEqual([
      {
        type: "int_parsing",
        loc: ["body", "position"],
        msg: "Input should be a valid integer, unable to parse string as an integer",
        input: "first",
      },
    ]);
  });

  it("checks credentials before parameters, as FastAPI resolves the user first", async () => {
    expect((await t.api("/api/foods/not-a-uuid")).status).toBe(401);
  });

  it("lets literal paths and Larder's own extras through: /foods/merge, /organizers/tools/empty", async () => {
    expect((await t.api("/api/organizers/tools/empty", { token })).status).toBe(200);
    const merge = await t.api("/api/foods/merge", { method: "PUT", token, json: {} });
    expect(merge.status).toBe(422);
    expect(((await merge.json()) as Detail).detail.every((d) => d.loc[0] === "body")).toBe(true);
  });

  it("never lets /recipes/{slug} routes take a fixed contract path that is not built: a 404 that says so", async () => {
    // Which fixed paths are still unbuilt changes as features land; path-params.test.ts pins the rule.
    const res = await t.api("/api/recipes/create/nonexistent-kind", { method: "POST", token });
    expect(res.status).toBe(404);
    // An unknown path that Mealie does not have either keeps FastAPI's plain answer.
    expect(await (await t.api("/api/recipes/x/y/z/w", { token })).json()).toEqual({ detail: "Not Found" });
  });

  it("echoes the offending input as Pydantic does: the value, or for a missing field the object it is missing from", async () => {
    const tag = await t.api("/api/organizers/tags", { method: "POST", token, json: { color: "red" } });
    expect(tag.status).toBe(422);
    const missing = (await tag.json()) as { detail: Record<string, unknown>[] };
    if (hasContract) assertContract("HTTPValidationError", missing);
    expect(missing.detail).toEqual([
      { type: "missing", loc: ["body", "name"], msg: "Field required", input: { color: "red" } },
    ]);
    const wrongType = await t.api("/api/organizers/tags", { method: "POST", token, json: { name: 5 } });
    expect(((await wrongType.json()) as Detail).detail).toEqual([
      { type: "string_type", loc: ["body", "name"], msg: "Input should be a valid string", input: 5 },
    ]);
  });

  it("gives enum with its ctx, uuid_parsing and float_parsing with the input, as Pydantic types them", async () => {
    const plan = await t.api("/api/households/mealplans", {
      method: "POST",
      token,
      json: { date: "2026-12-07", entryType: "brunch", title: "x" },
    });
    expect(plan.status).toBe(422);
    expect(((await plan.json()) as Detail).detail).toEqual([
      expect.objectContaining({
        type: "enum",
        loc: ["body", "entryType"],
        input: "brunch",
        ctx: { expected: expect.stringContaining("'dinner'") },
      }),
    ]);
    const item = await t.api("/api/households/shopping/items", {
      method: "POST",
      token,
      json: { shoppingListId: "not-a-list", note: "milk" },
    });
    expect(((await item.json()) as Detail).detail).toEqual([
      {
        type: "uuid_parsing",
        loc: ["body", "shoppingListId"],
        msg: "Input should be a valid UUID",
        input: "not-a-list",
      },
    ]);
    const created = await t.api("/api/recipes", { method: "POST", token, json: { name: "Servings Text" } });
    const slug = (await created.json()) as string;
    const servings = await t.api(`/api/recipes/${slug}`, {
      method: "PATCH",
      token,
      json: { recipeServings: "four" },
    });
    expect(((await servings.json()) as Detail).detail).toEqual([
      {
        type: "float_parsing",
        loc: ["body", "recipeServings"],
        msg: "Input should be a valid number, unable to parse string as a number",
        input: "four",
      },
    ]);
  });

  it("never echoes a password, where Pydantic would send it back inside the object a field is missing from", async () => {
    const res = await t.api("/api/admin/users", {
      method: "POST",
      token,
      json: { fullName: "No Name", password: "correct-horse-battery", email: 7 },
    });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).not.toContain("correct-horse-battery");
    const body = JSON.parse(text) as { detail: { type: string; loc: unknown[]; input: unknown }[] };
    const username = body.detail.find((d) => d.loc.join(".") === "body.username");
    expect(username).toMatchObject({
      type: "missing",
      input: { fullName: "No Name", password: "**********", email: 7 },
    });
    const short = await t.api("/api/admin/users", {
      method: "POST",
      token,
      json: { username: "shorty", fullName: "S", email: "s@example.com", password: 12345 },
    });
    const shortText = await short.text();
    expect(short.status).toBe(422);
    expect(shortText).not.toContain("12345");
  });
});
