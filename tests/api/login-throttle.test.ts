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

  it("a guessing attack from several addresses locks the account for everyone, and its sessions end", async () => {
    const p = await makeUser(t);
    for (const from of ["203.0.113.10", "203.0.113.11", "203.0.113.12"]) {
      for (let i = 0; i < 5; i++) await t.api("/api/auth/token", form(p.user.username, `guess-${i}`, from));
    }
    expect((await t.api("/api/auth/token", form(p.user.username, PASSWORD, "198.51.100.30"))).status).toBe(
      423,
    );
    expect((await t.api("/api/users/self", { token: p.token })).status).toBe(401);
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
