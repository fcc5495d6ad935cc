import { randomBytes } from "node:crypto";
import { SignJWT, decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { UnauthorizedError } from "../errors.js";
import { InvalidTokenError, signSessionJwt, verifySessionJwt } from "./jwt.js";

const secret = new Uint8Array(randomBytes(48));
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("session JWTs", () => {
  it("carries sub, sid, exp and iss=mealie, signed HS256", async () => {
    const exp = inAnHour();
    const token = await signSessionJwt(secret, { userId: "u1", sessionId: "s1", exp });
    expect(decodeProtectedHeader(token).alg).toBe("HS256");
    expect(decodeJwt(token)).toEqual({ sub: "u1", sid: "s1", exp, iss: "mealie" });
    expect(await verifySessionJwt(secret, token)).toEqual({ sub: "u1", sid: "s1", exp, iss: "mealie" });
  });

  it("refuses a token signed with another key (forged)", async () => {
    const forged = await signSessionJwt(new Uint8Array(randomBytes(48)), {
      userId: "admin",
      sessionId: "s",
      exp: inAnHour(),
    });
    await expect(verifySessionJwt(secret, forged)).rejects.toThrow(UnauthorizedError);
  });

  it("refuses a token whose payload was edited after signing", async () => {
    const token = await signSessionJwt(secret, { userId: "u1", sessionId: "s1", exp: inAnHour() });
    const [h, , s] = token.split(".");
    const payload = Buffer.from(
      JSON.stringify({ sub: "admin", sid: "s1", exp: inAnHour(), iss: "mealie" }),
    ).toString("base64url");
    await expect(verifySessionJwt(secret, `${h}.${payload}.${s}`)).rejects.toMatchObject({
      status: 401,
      reason: "invalid",
    });
  });

  it("refuses an expired token, saying so", async () => {
    const token = await signSessionJwt(secret, {
      userId: "u1",
      sessionId: "s1",
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const err = await verifySessionJwt(secret, token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidTokenError);
    expect((err as InvalidTokenError).reason).toBe("expired");
  });

  it("honours an injected clock", async () => {
    const exp = inAnHour();
    const token = await signSessionJwt(secret, { userId: "u1", sessionId: "s1", exp });
    await expect(verifySessionJwt(secret, token, { now: new Date((exp + 1) * 1000) })).rejects.toMatchObject({
      reason: "expired",
    });
  });

  it("refuses another algorithm, even with the right key, and unsigned tokens", async () => {
    const hs512 = await new SignJWT({ sid: "s1" })
      .setProtectedHeader({ alg: "HS512" })
      .setSubject("u1")
      .setIssuer("mealie")
      .setExpirationTime(inAnHour())
      .sign(secret);
    await expect(verifySessionJwt(secret, hs512)).rejects.toThrow(InvalidTokenError);
    const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const payload = Buffer.from(
      JSON.stringify({ sub: "u1", sid: "s1", exp: inAnHour(), iss: "mealie" }),
    ).toString("base64url");
    await expect(verifySessionJwt(secret, `${header}.${payload}.`)).rejects.toThrow(InvalidTokenError);
  });

  it("refuses tokens without a session id or with another issuer (a Mealie refresh token has no iss)", async () => {
    const noSid = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u1")
      .setIssuer("mealie")
      .setExpirationTime(inAnHour())
      .sign(secret);
    await expect(verifySessionJwt(secret, noSid)).rejects.toThrow(InvalidTokenError);
    const noIss = await new SignJWT({ sid: "s1" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("u1")
      .setExpirationTime(inAnHour())
      .sign(secret);
    await expect(verifySessionJwt(secret, noIss)).rejects.toThrow(InvalidTokenError);
  });

  it("refuses garbage", async () => {
    for (const junk of ["", "abc", "a.b.c", "lt_notajwt"])
      await expect(verifySessionJwt(secret, junk)).rejects.toThrow(InvalidTokenError);
  });
});
