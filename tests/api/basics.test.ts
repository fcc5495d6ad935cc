import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { assertContract, hasContract } from "../support/contract.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer({ theme: { LIGHT_PRIMARY: "#123456" } });
  token = await t.login();
});
afterAll(async () => t?.close());

describe("app and errors", () => {
  it("answers /app/about in the AppInfo shape with Mealie's API version", async () => {
    const res = await t.api("/api/app/about");
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.version).toBe("v3.19.2");
    if (hasContract) assertContract("AppInfo", body);
  });

  it("takes theme colours from THEME_* and lets clients cache them", async () => {
    const res = await t.api("/api/app/about/theme");
    const body = (await res.json()) as Record<string, string>;
    expect(body.lightPrimary).toBe("#123456");
    expect(body.darkPrimary).toBe("#E58325");
    expect(res.headers.get("cache-control")).toContain("max-age=604800");
    if (hasContract) assertContract("AppTheme", body);
  });

  it("marks a signed-in answer as that person's own: no shared cache keeps it, none is reused unchecked", async () => {
    for (const path of ["/api/users/self", "/api/households/mealplans", "/api/households/shopping/lists"]) {
      const res = await t.api(path, { token });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("private, no-cache");
    }
    // An answer with its own caching keeps it; a public one gets no such mark.
    expect((await t.api("/api/app/about/theme", { token })).headers.get("cache-control")).toContain(
      "max-age",
    );
    expect((await t.api("/api/app/about")).headers.get("cache-control")).toBeNull();
  });

  it("answers unknown /api routes with 404 {detail: Not Found} and wrong methods with 405", async () => {
    const res = await t.api("/api/nothing/here");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "Not Found" });
    expect((await t.api("/api/app/about", { method: "DELETE" })).status).toBe(405);
  });

  it("refuses malformed JSON with 422 in the HTTPValidationError shape", async () => {
    const res = await t.api("/api/recipes", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(Array.isArray(body.detail)).toBe(true);
    expect(body.detail[0].msg).toMatch(/JSON/);
    if (hasContract) assertContract("HTTPValidationError", body);
  });

  it("refuses huge bodies with 413", async () => {
    const big = JSON.stringify({ name: "x", description: "a".repeat(3 * 1024 * 1024) });
    const res = await t.api("/api/recipes", {
      method: "POST",
      token,
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(res.status).toBe(413);
  });

  it("serves the caller's group and household", async () => {
    const g = (await (await t.api("/api/groups/self", { token })).json()) as Record<string, unknown>;
    expect(g.slug).toBe("home");
    if (hasContract) assertContract("GroupSummary", g);
    const h = (await (await t.api("/api/households/self", { token })).json()) as Record<string, unknown>;
    expect(h.slug).toBe("family");
    if (hasContract) assertContract("HouseholdInDB", h);
  });
});
