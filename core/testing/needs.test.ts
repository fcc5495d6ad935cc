import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
});

async function load(ci: string | undefined) {
  vi.stubEnv("CI", ci);
  return import("./needs.js");
}

describe("missing test dependencies", () => {
  it("skip with a message outside CI", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { runsWith } = await load(undefined);
    expect(runsWith(false, "chromium")).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("missing: chromium"));
    expect(runsWith(true, "chromium")).toBe(true);
  });

  it("run, and fail, under CI=true", async () => {
    const { runsWith, requireDependency } = await load("true");
    expect(runsWith(false, "slapd")).toBe(true);
    expect(() => requireDependency(false, "slapd")).toThrow(/missing: slapd; required under CI=true/);
    expect(() => requireDependency(true, "slapd")).not.toThrow();
  });

  it("fail inside a test under CI=true, and skip it elsewhere", async () => {
    const skip = vi.fn((note?: string): never => {
      throw new Error(`skip: ${note}`);
    });
    const inCi = await load("true");
    expect(() => inCi.skipOrFail({ skip }, "openssl")).toThrow(/missing: openssl; required under CI=true/);
    expect(skip).not.toHaveBeenCalled();
    vi.resetModules();
    const local = await load(undefined);
    expect(() => local.skipOrFail({ skip }, "openssl")).toThrow(/skip: missing: openssl/);
  });
});
