/** The API's error messages follow Accept-Language (decision 0107); English stays the exact wire text. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = await t.login();
});
afterAll(() => t.close());

describe("error messages in the request's language", () => {
  it("answers a 401 in German and in English without the header", async () => {
    const de = await t.api("/api/users/self", { headers: { "Accept-Language": "de-DE,de;q=0.9" } });
    expect(de.status).toBe(401);
    expect(de.headers.get("content-language")).toBe("de-DE");
    expect(await de.json()).toEqual({ detail: "Nicht angemeldet" });
    const en = await t.api("/api/users/self");
    expect(await en.json()).toEqual({ detail: "Not authenticated" });
    expect(en.headers.get("content-language")).toBeNull();
  });

  it("answers a 404 in Arabic and a 422 in French, keeping type and loc", async () => {
    const missing = await t.api("/api/no-such-thing", { token, headers: { "Accept-Language": "ar" } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: "غير موجود" });
    const bad = await t.api("/api/households/cookbooks", {
      method: "POST",
      token,
      json: {},
      headers: { "Accept-Language": "fr-CA, en;q=0.5" },
    });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { detail: { msg: string; type: string; loc: string[] }[] };
    const name = body.detail.find((d) => d.loc.includes("name"));
    expect(name).toMatchObject({ type: "missing", msg: "Champ obligatoire" });
  });

  it("keeps English for English, a wildcard and languages without a catalogue", async () => {
    for (const lang of ["en-GB", "*", "ja-JP"]) {
      const res = await t.api("/api/no-such-thing", { token, headers: { "Accept-Language": lang } });
      expect(await res.json()).toEqual({ detail: "Not Found" });
    }
  });
});
