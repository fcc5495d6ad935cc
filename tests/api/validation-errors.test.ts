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
});
