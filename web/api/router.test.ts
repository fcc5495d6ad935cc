import { describe, expect, it } from "vitest";
import { route, Router } from "./router.js";

const h = () => null;
const router = new Router().add(
  route("GET", "/api/recipes/:slug", "user", h),
  route("PUT", "/api/recipes/:slug", "user", h),
  route("GET", "/api/recipes/:slug/comments", "user", h),
  route("GET", "/api/recipes/timeline/events", "user", h),
  route("GET", "/api/recipes/:slug/:part", "user", h),
);
const matched = (method: string, path: string) => {
  const m = router.match(method, path);
  return m === null || m === "method" ? m : { path: m.route.path, method: m.route.method, params: m.params };
};

describe("the API router", () => {
  it("prefers literal segments to parameters, whatever the order routes were added in", () => {
    expect(matched("GET", "/api/recipes/timeline/events")).toMatchObject({
      path: "/api/recipes/timeline/events",
    });
    expect(matched("GET", "/api/recipes/soup/comments")).toMatchObject({ params: { slug: "soup" } });
    expect(matched("GET", "/api/recipes/soup/assets")).toMatchObject({
      path: "/api/recipes/:slug/:part",
      params: { slug: "soup", part: "assets" },
    });
  });

  it("decodes parameters, and matches nothing when a segment does not decode", () => {
    expect(matched("GET", "/api/recipes/cr%C3%A8me")).toMatchObject({ params: { slug: "crème" } });
    expect(matched("GET", "/api/recipes/a%2Fb")).toMatchObject({ params: { slug: "a/b" } });
    expect(matched("GET", "/api/recipes/%E0%A4%A")).toBeNull();
    expect(router.routeForPath("/api/recipes/%zz")).toBeNull();
  });

  it("tells a wrong method from an unknown path, and answers HEAD as GET", () => {
    expect(matched("DELETE", "/api/recipes/soup")).toBe("method");
    expect(matched("PUT", "/api/recipes/soup")).toMatchObject({ method: "PUT" });
    expect(matched("HEAD", "/api/recipes/soup")).toMatchObject({ method: "GET" });
    expect(matched("GET", "/api/recipes/soup/comments/extra/more")).toBeNull();
    expect(matched("GET", "/api")).toBeNull();
    expect(router.routeForPath("/api/recipes/soup")?.path).toBe("/api/recipes/:slug");
  });
});
