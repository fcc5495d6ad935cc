import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  dummyVerify,
  hashPassword,
  observeBcrypt,
  stopPasswordWorkers,
  verifyPassword,
  type BcryptObservation,
} from "./passwords.js";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

afterAll(async () => {
  await stopPasswordWorkers();
});

describe("passwords", () => {
  it("hashes with a $2b$ prefix and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse", 4);
    expect(hash).toMatch(/^\$2b\$04\$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("wrong horse", hash)).toBe(false);
  });

  it("verifies hashes written by other bcrypt implementations ($2a$, $2b$ as Mealie writes them, $2y$)", async () => {
    // The classic OpenBSD test vector for "U*U" at cost 5.
    const body = "05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
    for (const prefix of ["$2a$", "$2b$", "$2y$"])
      expect(await verifyPassword("U*U", prefix + body)).toBe(true);
    expect(await verifyPassword("U*V", `$2b$${body}`)).toBe(false);
  });

  it("treats a stored value that is not a bcrypt hash (LDAP/OIDC placeholders) as a mismatch after the same work", async () => {
    const seen: BcryptObservation[] = [];
    const off = observeBcrypt((o) => seen.push(o));
    expect(await verifyPassword("OIDC", "OIDC", 4)).toBe(false);
    off();
    expect(seen).toEqual([{ op: "verify", dummy: true }]);
  });

  it("runs a bcrypt compare for an unknown user so timing does not reveal existence", async () => {
    const seen: BcryptObservation[] = [];
    const off = observeBcrypt((o) => seen.push(o));
    expect(await dummyVerify("whatever", 4)).toBe(false);
    off();
    expect(seen).toEqual([{ op: "verify", dummy: true }]);
  });

  it("keeps the event loop ticking during a cost-12 hash", async () => {
    let ticks = 0;
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    const hash = await hashPassword("a long and winding passphrase", 12);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(hash).toMatch(/^\$2b\$12\$/);
    // The hash takes hundreds of ms; on the main thread there would be no tick at all until it ended.
    expect(elapsed).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(Math.max(3, elapsed / 5 / 10));
    expect(maxGap).toBeLessThan(elapsed / 2);
  });

  it("never keeps the process alive once hashing is done (and works when run through tsx)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "larder-pw-"));
    try {
      const script = path.join(dir, "hash.mjs");
      const moduleUrl = pathToFileURL(path.join(projectRoot, "core/auth/passwords.ts")).href;
      await writeFile(
        script,
        `import { hashPassword } from ${JSON.stringify(moduleUrl)};\nconsole.log(await hashPassword("x", 4));\n`,
      );
      const child = spawn(process.execPath, ["--import", "tsx", script], {
        cwd: projectRoot,
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error("the process did not exit on its own: a worker keeps it alive"));
        }, 10_000);
        child.once("exit", (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(0);
      expect(out).toMatch(/^\$2b\$04\$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
