import { describe, expect, it } from "vitest";
import { canonicalPathParams, pathParamProblems, unbuiltContractPath } from "./path-params.js";

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

  it("hands a route a UUID parameter in lower-case hyphenated form, paired with the contract by position", () => {
    const id = "0B6C35B68F0A4B5E9F5A1D2C3B4A5E6F";
    expect(canonicalPathParams("GET", `/api/foods/${id}`, "/api/foods/:id", { id })).toEqual({
      id: "0b6c35b6-8f0a-4b5e-9f5a-1d2c3b4a5e6f",
    });
    // A slug parameter is left as written.
    expect(canonicalPathParams("GET", "/api/recipes/ABC", "/api/recipes/:slug", { slug: "ABC" })).toEqual({
      slug: "ABC",
    });
  });
});
