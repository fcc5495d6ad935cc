/**
 * Login throttling by client address (issue 11 §7, decision 0018). Before, five anonymous wrong
 * passwords locked the admin out for a day, there was no throttling by address, and sessions stayed
 * valid while an account was locked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { makeUser, PASSWORD } from "../support/people.js";

const form = (username: string, password: string, from?: string): RequestInit => ({
  method: "POST",
  headers: {
    "Content-Type": "application/x-www-form-urlencoded",
    ...(from ? { "X-Forwarded-For": from } : {}),
  },
  body: new URLSearchParams({ username, password }),
});

describe("behind a trusted proxy (LARDER_TRUSTED_PROXIES=127.0.0.1)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ trustedProxies: "127.0.0.1" });
  });
  afterAll(async () => t?.close());

  it("an anonymous attacker locks only their own address out; the owner signs in from elsewhere, sessions intact", async () => {
    const p = await makeUser(t);
    const attacker = "203.0.113.7";
    for (let i = 0; i < 5; i++)
      expect((await t.api("/api/auth/token", form(p.user.username, `guess-${i}`, attacker))).status).toBe(
        401,
      );
    // Mealie's answer to the client that made the guesses, even with the right password.
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, attacker))).status).toBe(423);
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, "198.51.100.20"))).status).toBe(
      200,
    );
    expect((await t.api("/api/users/self", { token: p.token })).status).toBe(200);
  });

  it("guesses sent all at once are counted before their passwords are checked: no more than five get a 401", async () => {
    const p = await makeUser(t);
    const attacker = "203.0.113.44";
    const guesses = Array.from({ length: 12 }, (_, i) =>
      t.api("/api/auth/token", form(p.user.username, `guess-${i}`, attacker)),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 423).length).toBeGreaterThanOrEqual(7);
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, attacker))).status).toBe(423);
    // A right password is no failure: the owner's own address keeps its five tries.
    const owner = "198.51.100.77";
    for (let i = 0; i < 3; i++)
      expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, owner))).status).toBe(200);
  });

  it("the sign-in form counts per address as the API does: one address's guesses lock nobody else out", async () => {
    const p = await makeUser(t);
    const page = (password: string, from: string) =>
      fetch(`${t.url}/login?index`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: t.url,
          "X-Forwarded-For": from,
        },
        body: new URLSearchParams({ username: p.user.username, password }),
      });
    for (let i = 0; i < 5; i++) expect((await page(`guess-${i}`, "203.0.113.55")).status).toBe(401);
    expect((await page(PASSWORD, "203.0.113.55")).status).toBe(423);
    expect((await page(PASSWORD, "198.51.100.55")).status).toBe(302);
    // An address over its budget across accounts is told so in words, not with an error page.
    const sprayer = "203.0.113.66";
    for (let i = 0; i < 20; i++) await t.api("/api/auth/token", form(`nobody-${i}`, "x", sprayer));
    const over = await page(PASSWORD, sprayer);
    expect(over.status).toBe(429);
    expect(await over.text()).toMatch(/Too many sign-in attempts/);
  });

  it("a guessing attack from several addresses locks the account for everyone, and its sessions end", async () => {
    const p = await makeUser(t);
    const apiToken = (
      (await (
        await t.api("/api/users/api-tokens", { method: "POST", token: p.token, json: { name: "phone" } })
      ).json()) as { token: string }
    ).token;
    for (const from of ["203.0.113.10", "203.0.113.11", "203.0.113.12"]) {
      for (let i = 0; i < 5; i++) await t.api("/api/auth/token", form(p.user.username, `guess-${i}`, from));
    }
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, "198.51.100.30"))).status).toBe(
      423,
    );
    expect((await t.api("/api/users/self", { token: p.token })).status).toBe(401);
    // Its API tokens too, while the lock lasts.
    expect((await t.api("/api/users/self", { token: apiToken })).status).toBe(401);
    expect(t.larder.auth.isLocked(p.user.id)).toBe(true);
  });

  it("an address spraying many accounts is answered 429 with Retry-After before its passwords are checked", async () => {
    const sprayer = "203.0.113.99";
    const answers: number[] = [];
    for (let i = 0; i < 21; i++)
      answers.push((await t.api("/api/auth/token", form(`nobody-${i}`, "x", sprayer))).status);
    expect(answers.slice(0, 20).every((s) => s === 401)).toBe(true);
    const last = await t.api("/api/auth/token", form("nobody-x", "x", sprayer));
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await t.api("/api/auth/token", form("nobody-y", "x", "198.51.100.40"))).status).toBe(401);
  });
});

describe("with no trusted proxy (the default)", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  it("ignores X-Forwarded-For: a new forged address per guess does not escape the throttle", async () => {
    const p = await makeUser(t);
    for (let i = 0; i < 5; i++)
      await t.api("/api/auth/token", form(p.user.username, `guess-${i}`, `203.0.113.${i}`));
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, "198.51.100.1"))).status).toBe(
      423,
    );
  });
});
