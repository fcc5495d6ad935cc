import { describe, expect, it } from "vitest";
import { pathParamProblems, unbuiltContractPath } from "./path-params.js";

describe("contract path parameters", () => {
  it("flags a non-UUID where the contract types the parameter as a UUID", () => {
    expect(pathParamProblems("GET", "/api/foods/abc", "/api/foods/:id")).toEqual([
      expect.objectContaining({ type: "uuid_parsing", loc: ["path", "item_id"] }),
    ]);
    expect(
      pathParamProblems("GET", "/api/foods/0b6c35b6-8f0a-4b5e-9f5a-1d2c3b4a5e6f", "/api/foods/:id"),
    ).toBeNull();
  });

  it("lets literal contract paths outrank parameters, and leaves Larder's extra routes alone", () => {
    expect(pathParamProblems("PUT", "/api/foods/merge", "/api/foods/merge")).toBeNull();
    expect(pathParamProblems("GET", "/api/organizers/tools/empty", "/api/organizers/tools/empty")).toBeNull();
  });

  it("names a fixed contract path that a Larder parameter route would otherwise take", () => {
    expect(unbuiltContractPath("POST", "/api/recipes/create/image", "/api/recipes/:slug/image")).toBe(
      "/api/recipes/create/image",
    );
    expect(unbuiltContractPath("POST", "/api/recipes/create/image", null)).toBe("/api/recipes/create/image");
    expect(unbuiltContractPath("POST", "/api/recipes/create/image", "/api/recipes/create/image")).toBeNull();
    expect(
      unbuiltContractPath("GET", "/api/organizers/tools/empty", "/api/organizers/tools/empty"),
    ).toBeNull();
    expect(unbuiltContractPath("GET", "/api/nowhere/at/all", null)).toBeNull();
  });
});
